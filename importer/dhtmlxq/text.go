package dhtmlxq

import (
	"html"
	"strconv"
	"strings"
)

// decode returns a field value as UTF-8 text: decoded from the file's
// encoding, HTML entities resolved (the blocks sit in web pages), "||"
// as a line break and \uXXXX escapes resolved (NOTATIONS §8).
func (r *Reader) decode(v []byte) string {
	s := string(r.enc.AppendUTF8(nil, v))
	if strings.IndexByte(s, '&') >= 0 {
		s = html.UnescapeString(s)
	}
	s = strings.ReplaceAll(s, "||", "\n")
	if strings.Contains(s, `\u`) {
		s = unescapeU(s)
	}
	return strings.TrimSpace(s)
}

// unescapeU resolves \uXXXX escapes, leaving malformed ones as written.
func unescapeU(s string) string {
	var sb strings.Builder
	for {
		i := strings.Index(s, `\u`)
		if i < 0 || i+6 > len(s) {
			sb.WriteString(s)
			return sb.String()
		}
		n, err := strconv.ParseUint(s[i+2:i+6], 16, 32)
		if err != nil {
			sb.WriteString(s[:i+2])
			s = s[i+2:]
			continue
		}
		sb.WriteString(s[:i])
		sb.WriteRune(rune(n))
		s = s[i+6:]
	}
}

// metaTag adds a metadata field under its PGN name. "open" holds the
// ECCO code and the opening name ("E27 仙人指路转左中炮对卒底炮飞左象"):
// split into ECCO and Opening.
func (p *parser) metaTag(name, v string) {
	switch strings.ToLower(name) {
	case "result":
		p.addTag("Result", resultOf(v))
		return
	case "open":
		if len(v) >= 3 && v[0] >= 'A' && v[0] <= 'E' && isDigit(v[1]) && isDigit(v[2]) && (len(v) == 3 || v[3] == ' ' || v[3] >= 0x80) {
			p.addTag("ECCO", v[:3])
			if rest := strings.TrimSpace(v[3:]); rest != "" {
				p.addTag("Opening", rest)
			}
			return
		}
	}
	p.addTag(tagName(name), v)
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

func (p *parser) addTag(name, v string) {
	p.tags.AddFunc([]byte(name), func(dst []byte) []byte { return append(dst, v...) })
}
