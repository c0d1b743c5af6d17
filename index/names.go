package index

import (
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"
)

// Player names across scripts (issue 14). A Xiangqi archive writes one
// player 呂欽 (CCPD), 吕钦, "Lu Qin", "LV Qin", "Lü Qin", "luqin", or in
// Vietnamese by the Hán-Việt reading "Lã Khâm". A name written in Han
// characters is indexed with its readings too (readings_table.go, from
// Unihan), so that each of those finds it:
//
//   - pinyin, syllables apart ("lu qin"), the surname apart from the
//     given name joined ("hu ronghua", and "ouyang ping" for a two-character
//     surname), and all joined ("huronghua"); ü also as v ("lv qin"), as
//     users type it (the index folds ü to u);
//   - Hán-Việt, syllables apart ("lã khâm", folded to "la kham").
//
// A character with several readings gives each reading's forms (单 is dān
// and the surname shàn), up to maxNameCombos readings of the whole name.

// maxNameCombos bounds the readings of one name: a name of four
// characters with three readings each would have 81.
const maxNameCombos = 8

type hanReadings struct{ pinyin, hanViet []string }

var (
	readingsOnce sync.Once
	readings     map[rune]hanReadings
)

// readingsOf returns the readings of a Han character, if the table has it.
func readingsOf(r rune) (hanReadings, bool) {
	readingsOnce.Do(func() {
		readings = make(map[rune]hanReadings, 27000)
		for rest := readingsTable; rest != ""; {
			var e string
			e, rest, _ = strings.Cut(rest, ";")
			r, size := utf8.DecodeRuneInString(e)
			py, hv, _ := strings.Cut(e[size:], "|")
			h := hanReadings{pinyin: strings.Split(py, ",")}
			if hv != "" {
				h.hanViet = strings.Split(hv, ",")
			}
			readings[r] = h
		}
	})
	h, ok := readings[r]
	return h, ok
}

// namePrefixes are the places and teams Chinese event records write before
// a player's name (CCPD: 黑龍江趙國榮, 火車頭郭長順, 南方棋院…), in
// simplified characters (names are folded to them first): provinces,
// cities, countries and the national teams of trades.
var namePrefixes = strings.Fields(`
	北京 天津 上海 重庆 河北 山西 辽宁 吉林 黑龙江 江苏 浙江 安徽 福建 江西 山东 河南 湖北 湖南
	广东 海南 四川 贵州 云南 陕西 甘肃 青海 台湾 内蒙古 内蒙 广西 西藏 宁夏 新疆 香港 澳门 台北
	成都 广州 深圳 大连 沈阳 西安 哈尔滨 哈市 厦门 青岛 南京 武汉 宁波 杭州 温州 苏州 无锡 鞍山
	抚顺 盘锦 石家庄 济南 郑州 长沙 合肥 福州 南昌 昆明 贵阳 兰州 银川 太原 清远 东莞 佛山 珠海
	汕头 惠州 中山 湛江 柳州 桂林 开滦 浦东
	中国 中华 火车头 解放军 煤矿 农协 农民 邮电 林业 轻工 冶金 物资 体协 大学生 棋院 宋城 八建 纺织
	移动 石油 石化 通讯 二队 一队 队 南方 北方 局
	新加坡 菲律宾 马来西亚 越南 澳大利亚 泰国 日本 美国 加拿大 德国 法国 印尼 文莱 缅甸 韩国 英国 荷兰`)

// personalName takes the place or team off the front of a name in Han
// characters (火车头郭长顺 → 郭长顺), while what is left is longer than a
// name: two to four characters.
func personalName(chars []rune) []rune {
	for len(chars) > 4 {
		cut := 0
		for _, p := range namePrefixes {
			pr := []rune(p)
			if len(pr) > cut && len(chars)-len(pr) >= 2 && string(chars[:len(pr)]) == p {
				cut = len(pr)
			}
		}
		if cut == 0 {
			break
		}
		chars = chars[cut:]
	}
	return chars
}

// nameReadings returns the pinyin and Hán-Việt forms of a name written in
// Han characters (two to four of them, spaces and a middle dot allowed,
// after a place or team before it), or nothing for any other name.
func nameReadings(name string) (pinyin, hanViet []string) {
	var han []rune
	for _, r := range name {
		switch {
		case r == ' ' || r == '·' || r == '・' || r == '\u3000':
			continue
		case !unicode.Is(unicode.Han, r):
			return nil, nil
		}
		han = append(han, r)
	}
	if len(han) > 4 {
		han = personalName([]rune(Fold(string(han))))
	}
	var chars []hanReadings
	for _, r := range han {
		h, ok := readingsOf(r)
		if !ok {
			return nil, nil
		}
		chars = append(chars, h)
	}
	if len(chars) < 2 || len(chars) > 4 {
		return nil, nil
	}
	for _, syl := range combos(chars, func(h hanReadings) []string { return h.pinyin }) {
		for _, f := range pinyinForms(syl) {
			pinyin = appendNew(pinyin, f)
			if strings.Contains(f, "ü") {
				pinyin = appendNew(pinyin, strings.ReplaceAll(f, "ü", "v"))
			}
		}
	}
	for _, syl := range combos(chars, func(h hanReadings) []string { return h.hanViet }) {
		hanViet = appendNew(hanViet, strings.Join(syl, " "))
	}
	return pinyin, hanViet
}

// combos lists up to maxNameCombos readings of a whole name, the first
// reading of each character first; none if a character has no reading.
func combos(chars []hanReadings, of func(hanReadings) []string) [][]string {
	out := [][]string{nil}
	for _, c := range chars {
		rs := of(c)
		if len(rs) == 0 {
			return nil
		}
		var next [][]string
		for _, prefix := range out {
			for _, r := range rs {
				if len(next) == maxNameCombos {
					break
				}
				next = append(next, append(append([]string(nil), prefix...), r))
			}
		}
		out = next
	}
	return out
}

// pinyinForms writes one reading of a name as users write names in
// pinyin.
func pinyinForms(syl []string) []string {
	forms := []string{
		strings.Join(syl, " "),
		syl[0] + " " + strings.Join(syl[1:], ""),
		strings.Join(syl, ""),
	}
	if len(syl) >= 3 { // a two-character surname: 欧阳平, Ouyang Ping
		forms = append(forms, syl[0]+syl[1]+" "+strings.Join(syl[2:], ""))
	}
	return forms
}

// splitSyllables cuts a word of pinyin into its syllables (ronghua →
// rong hua), longest first, or returns nil if it is not pinyin.
func splitSyllables(w string) []string {
	syllablesOnce.Do(func() {
		readingsOf(0)
		syllables = map[string]bool{}
		for _, h := range readings {
			for _, p := range h.pinyin {
				syllables[p] = true
				syllables[strings.ReplaceAll(p, "ü", "v")] = true
			}
		}
	})
	if w == "" {
		return []string{}
	}
	for n := min(len(w), 7); n > 0; n-- {
		if !syllables[w[:n]] {
			continue
		}
		if rest := splitSyllables(w[n:]); rest != nil {
			return append([]string{w[:n]}, rest...)
		}
	}
	return nil
}

var (
	syllablesOnce sync.Once
	syllables     map[string]bool
)

func appendNew(list []string, s string) []string {
	for _, x := range list {
		if x == s {
			return list
		}
	}
	return append(list, s)
}

// latinPinyinForms writes a name already in Latin letters (a Xiangqi
// player's pinyin) in the other ways users write it: hyphens dropped ("Hu
// Rong-hua" as "Hu Ronghua"), all joined ("huronghua"), and ü and v for
// each other ("Lü Qin" as "Lv Qin", "LV Qin" as "Lü Qin"), so that each
// spelling finds the others.
func latinPinyinForms(name string) []string {
	words := strings.Fields(strings.ReplaceAll(name, "-", ""))
	if len(words) < 2 || len(words) > 4 {
		return nil
	}
	for _, w := range words {
		if len(w) > 24 { // no pinyin word is as long; bounds splitSyllables
			return nil
		}
		for _, r := range w {
			if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r == 'ü' || r == 'Ü') {
				return nil
			}
		}
	}
	var forms []string
	add := func(ws []string) {
		forms = appendNew(forms, strings.Join(ws, " "))
		forms = appendNew(forms, strings.Join(ws, ""))
		var syl []string // "Hu Ronghua" as "hu rong hua"
		for _, w := range ws {
			parts := splitSyllables(strings.ToLower(w))
			if parts == nil {
				return
			}
			syl = append(syl, parts...)
		}
		forms = appendNew(forms, strings.Join(syl, " "))
	}
	add(words)
	swapped := make([]string, len(words))
	changed := false
	for i, w := range words {
		l := strings.ToLower(w)
		switch {
		case strings.Contains(l, "ü"):
			swapped[i], changed = strings.ReplaceAll(l, "ü", "v"), true
		case l == "lv" || l == "nv" || l == "lve" || l == "nve":
			swapped[i], changed = strings.ReplaceAll(l, "v", "ü"), true
		default:
			swapped[i] = w
		}
	}
	if changed {
		add(swapped)
	}
	return forms
}

// withReadings is the indexed text of a player's name: the name as
// written, then its readings — for a Xiangqi game, also its other pinyin
// spellings. They go into one value, not one field each, so that Bleve's
// analysis of it is cached like any other value's; phrases still match
// within a form.
func withReadings(name string, xiangqi bool) string {
	py, hv := nameReadings(name)
	if xiangqi && len(py) == 0 {
		py = latinPinyinForms(name)
	}
	if len(py) == 0 && len(hv) == 0 {
		return name
	}
	var b strings.Builder
	b.WriteString(name)
	for _, f := range py {
		b.WriteString(" | ")
		b.WriteString(f)
	}
	for _, f := range hv {
		b.WriteString(" | ")
		b.WriteString(f)
	}
	return b.String()
}
