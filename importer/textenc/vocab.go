package textenc

// vocab holds characters that are frequent in Xiangqi records and in
// Chinese prose, in simplified and traditional forms. Text decoded with the
// right double-byte table hits them constantly; Big5 bytes read as GBK (or
// the reverse) decode to rare characters that almost never do
// (NOTATIONS §10.1: "Big5 text decoded as GBK gives garbage").
const vocab = "" +
	// Xiangqi notation, both scripts (NOTATIONS §3).
	"車车俥馬马傌炮砲包兵卒將将帥帅士仕象相進进退平前後后中" +
	"一二三四五六七八九１２３４５６７８９胜負负和棋紅红黑先局" +
	// Frequent simplified characters.
	"的是不了人我在有他这个们来上大为国地到以说时要就出会可也你对生能而子那得于着下自之年" +
	"过发作里用道行所然家种事成方多经么去法学如都同现当没动面起看定天分还好小部其些主样理" +
	"心她本开但因只从想实日军者意无力它与长把机十民第公此已工使情明性知全又关点正业外两高" +
	"间由问很最重并物手应战向头文体政美见被利什等产或新己制身果加西斯月话合回特代内信表化" +
	"老给世位次度门任常海通教儿原东声提立及比员解水名真论处走义各入几口认条系气题活尔更别" +
	"打女变神总何电数安少报才结反受目太量再感建务做接必场件计管期市直德资命山金指克许统区" +
	"保至队形社便空决治展科司基眼书非则听白却界达光放强即像难且权思王完设式色路记南品住告" +
	"类求据程北边死张该交规万取拉格望觉术领共确传师观清今切院让识候带导争运笑飞风步改收根" +
	"干造言联持组每济亲极林服快办议往元英证近失转夫令准布始怎呢存未远叫台单影具罗字爱击流" +
	"备连调深商算质团集百需价花党华城石级整府离况亚请技际约示复病息究线似官火断精满支视消" +
	"越器容照须增研写称企功吗片史委乎查轻易早曾除农找装广显吧阿李标谈吃图念引历首医局突专" +
	"费号尽另周较注语仅考落青随选列武响虽推势参希古众构房半节土投某案维革划敢赛届杯冠军" +
	// Frequent traditional forms that differ.
	"們來這個國說時會對發過裡經麼學現當沒動開還問見長機點從與實體關軍頭東聲員兩間條無種義" +
	"題爾別變數報結總電應戰樣區隊讓識導運飛風該親極術證轉帶師觀聯組濟議遠臺單羅愛擊備連調" +
	"質團價黨華級離況亞請際約復線斷滿視話歷醫專費號盡較語僅隨選響雖勢參構節劃勝賽屆盃軍"

var vocabSet = func() map[rune]struct{} {
	m := make(map[rune]struct{}, len(vocab)/3)
	for _, r := range vocab {
		m[r] = struct{}{}
	}
	return m
}()
