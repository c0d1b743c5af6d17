package api

import "embed"

// webFiles is the explorer page: plain HTML, JS and CSS, no CDN, no build
// step, so it works offline.
//
//go:embed web
var webFiles embed.FS
