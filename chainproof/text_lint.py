"""What ``chainproof lint`` finds by reading the rule texts themselves, with
no question declared.  These findings are textual: no game shows them, so
they have no transcript (what one means for play is its known-findings note's
to say).

- **dangling-reference**: a text cites a rule number ("see 709.2a") that it
  never heads, or a citation whose number the document lost (a word
  processor's "Error! Reference source not found").  A text that is an
  excerpt (``Source.covers``) may cite a rule outside the sections it holds:
  that is a finding only when no other text of the game that holds that
  section heads the rule either (the seed translation's 7xx citations point
  at the chain rules it leaves out, which CR7.4 holds).  A citation of a rule
  inside the sections a text holds, which the text lacks, is always one.
- **misdirected-reference**: in a Chinese text, the words a citation
  annotates end in the title of another section of the same text, which
  shares no word with the cited section's title (000's "healed (see 405)",
  where 405 is dual wield and 406 healing).  A rule's own section is left
  out: a rule names its subject before citing another.  English texts are not
  checked: there a one-word title ends compound terms that name something
  else ("prevention modifiers (717)", "variable cost (707.1b)"), and every
  such match in CR7.4 fits its rule on reading.  Whether a citation fits its
  words in any looser sense is not guessed at.
- **translation-clash**: one text in two languages (``002``: the English,
  and the Chinese under each rule) where a rule's two versions each state a
  number (digits, or number words of either language) or cite a rule that
  the other does not.  One that only adds to the other (a "two" for "both",
  a citation left out) contradicts nothing and is only counted.
- **version-clash**: two versions of one rulebook (the seeds' numbering and
  CR7.4) where a rule's two versions do the same, compared through a declared
  concordance of their sections (``model/concordance.py``): a section the
  concordance pairs is compared sub-rule by sub-rule, by number or by the
  move the concordance declares for a rule numbered otherwise, and the older
  text's citations are read in the later numbering (000's "see 409.6" is
  CR7.4's 410.6), so a citation that only moved is no finding.  Lint also
  says how far the citations bear the concordance out, and names each pair
  that states numbers or citations on both sides and shares none, unless the
  concordance declares it one rule rewritten: such a pair is most likely two
  different rules, a move the concordance lacks (``version_concordance``).
- **basic-clash**: a text that numbers nothing (``001``, the basic rules)
  against the numbered versions, through a declared concordance of its
  passages (``model/basic_concordance.py``: a section's heading and a few of
  the passage's words, paired with a rule of each version).  Only figures are
  compared, each with what it counts (cards, players, steps, phases, zones,
  kinds of trait...), read from the words after it in either language, or
  the items a rule lists (its bullets, its row of icons) where the
  concordance says what they count: a pair where both sides count one thing
  and each states a figure the other does not is a finding, and so is one
  whose two sides name things in an order that is part of the rule (the
  start phase's steps, through the words the concordance declares for them)
  in different orders.  One counts only
  in digits or after a word that limits ("only one resource"), since it is
  an article too.  Lint says how far the pairs bear the concordance out: a
  pair whose two sides count, but count different things, is named as most
  likely two different rules (``basic_concordance``).  A list of names (the
  keywords: the heads of a section's bullets) is compared with the list an
  entry of CR7.4's glossary gives, through the terms the concordance declares
  for them, each of which must be a term that glossary defines: a name whose
  term the later list lacks is a finding.
- **self-count**: a text against itself.  A passage (a rule, a glossary
  entry, a section of a text that numbers nothing) that states a count and
  goes on to enumerate what it counts, where the items it lists are not as
  many: "six card types: Ability, Ally...", "分為2個步驟:重置步驟和抓牌步驟",
  a count whose words end its line with the list in the lines below (bullets,
  numbered lines, names each with a colon, a row of icons), a colon that ends
  a rule with its sub-rules below, "三種...分別為", "分為力量、敏捷和智力三種",
  "兩個方面。首先...其次".  A count is paired with a list only where the text
  puts one right after the other: its counted words run up to a colon (or to
  "they are" in the next sentence), or end the line that the list follows.  A
  list that says it is not whole ("such as", 等) or that lint cannot split
  (names run together with no mark between them) is named, not compared.
  Also the counted words (two English words or more, a Chinese noun of two
  characters or more: "card types", 種牌類別) that the same text states after
  another number elsewhere, enumerated or not: a finding where the numbers
  differ.  Lint says per text how many counts it compared and how many agree.

- **glossary-clash**: a glossary against the rules it restates, in one
  text.  Each entry is paired with its rule: by the rule its head cites
  (CR7.4's "Chain (415.6):", the rule read with its sub-rules), else by a
  heading in the same words (a rule's title, singular or plural; in the
  basic rules, ``001``, a section's title or a bulleted or numbered name with
  its colon, "·熊形態:"), else through a small declared table
  (``model/glossary_concordance.py``).  Each pair's figures are compared with
  what they count (``counts``): a pair where both sides count one thing and
  each states a figure for it that the other does not is a finding (one that
  only adds a figure, "two zones: chain and play", is counted).
  So is a citation that points past what the entry restates (a misdirected
  glossary reference): the cited rule, with its sub-rules, names none of the
  term's words (a keyword's rule may instead share two words in a row of
  what the keyword means), or shares no four words in a row with the entry
  while another rule of its section shares seven or more (the entry is that
  rule's words, CR7.4's Destroy is 415.9d's and cites 415.9c).  Lint says per
  glossary how many entries it paired, how many state a count of one thing
  on both sides, and how many of those agree.

- **term-clash**: the game's terms against their Chinese renderings, through
  a declared table (``model/term_concordance.py``: each term's CR7.4 name, an
  English pattern, and the words each Chinese text renders it by; a "…" in a
  rendering stands for a few words of one clause, 提议…为攻击者).  A text that
  renders one term two ways, unless the table says why they are synonyms, or
  two terms alike, unless it says why its words still tell them apart; a rule
  whose English names a term its Chinese renders by none of its words, while
  the Chinese names another term of the same kind (a zone for a zone, a role
  for a role) more often than the English does (002's two languages, and 000
  against CR7.4 through the concordance), unless declared read and found to
  say the same; a rule of both 000 and 002's Chinese whose English names a
  term the two render by different words; and one word two texts use for
  different terms.  Riftbound's combat rules (003) are held within the text
  to their own table (``model/riftbound/terms.py``).  Heroes of Ancients'
  rules (004) are held to the term list the text opens with, read from the
  file, and to what ``model/hota/terms.py`` declares beside it: one Chinese
  the list gives two terms, a listed term the rules write only in other words,
  and the terms the rules use heavily that the list lacks.  Lint says per text
  how many occurrences of terms it read, and per pair how many the Chinese
  renders.

A rule's words run from its heading to the next heading, without its
examples and card texts (which a translation may leave out or keep
untranslated), chapter titles, page footers and the forum's post stamps; a
list's own markers such as ``(1)`` are not numbers of the rule.  Where the
texts are not at hand, lint says the text checks were skipped.
"""

from __future__ import annotations

import bisect
import itertools
import re
from dataclasses import dataclass, field
from typing import Callable, Iterable, Mapping

from model.basic_concordance import BASIC_CONCORDANCES, BasicConcordance
from model.concordance import CONCORDANCES, Concordance
from model.glossary_concordance import GLOSSARY_CONCORDANCES, GlossaryPassage
from model.hota import terms as hota_terms
from model.riftbound import terms as riftbound_terms
from model.term_concordance import READINGS, SHARED, TERMS, Term, TEXTS as TERM_TEXTS
from model.sources import GAME_SOURCES, SOURCES, Source, lines_of

#: The kinds of finding this module reports, in report order.
KINDS = ("dangling-reference", "misdirected-reference", "translation-clash", "version-clash", "basic-clash", "self-count", "glossary-clash", "term-clash")

#: A rule's heading: its number first on the line (after a Markdown ``###``),
#: then its words (a wrapped line that starts with a rule number and stops,
#: "603.1." or "415.9a.", ends a citation instead; 004 writes one number twice, "103.4. 103.4.").
_HEAD = re.compile(r"^\s*(?:#+\s*)?([1-9]\d{2}(?:\.\d+[a-z]?)?)(?![a-z])\.?(?=\s*(?:[^\s\d(（.]|[1-9]\d{2}\.\d))")
#: A citation: a dotted rule number, a bare section number where the words say
#: it is one (after "rule", "see", 规则, 见) or alone in brackets, or a number
#: the document lost.
_CITE = re.compile(
    r"(?<![\d.])[1-9]\d{2}\.\d+[a-z]?(?!\d)"
    r"|(?:(?<=rule )|(?<=rules )|(?<=see )|(?<=规则)|(?<=见)|(?<=见 ))[1-9]\d{2}(?![\d.])"
    r"|(?<=[(（])[1-9]\d{2}(?=[)）])"
    r"|Error! Reference source"
)
LOST = "lost"
#: A line without three digits in a row, or the lost reference's marker, cites nothing.
_MAYBE_CITES = re.compile(r"[1-9]\d\d|Error!")
#: A further number in a list of citations ("规则102.2,709.2a", "(409.5 and 409.6)").
_LIST_MORE = re.compile(r"^\s*(?:,|，|、|和|及|与|and|or)\s*([1-9]\d{2}(?:\.\d+[a-z]?)?)(?!\d)")
#: What introduces a citation, between the words it annotates and its number.
_INTRO = re.compile(r"\s*[(（]?\s*(?:但请参见|请参见|参见|见|see|rules?)?\s*(?:规则)?\s*$", re.IGNORECASE)
#: The start of a rule's example or of a card's text, where its words end.
_EXAMPLE = re.compile(r"^\s*(?:Example|例[:：]|例如|举例)")
_CARD = re.compile(r"^[^,，]{2,60}, \d+, ")
#: Where the rule above ends: a chapter's title ("3. Card types", "4.游戏术语"),
#: a row of dashes (a translator's note follows), a forum post's stamp.
_CLOSE = re.compile(r"^\s*(?:\d{1,2}\.\s*\S|-{5,}\s*$)|IP属地")
#: Lines of the page, not of the rule: the reference's page footers, the forum's reply button.
_PAGE = re.compile(r"^\s*(?:WoW TCG CR v[\d.]+\s+\d+\s*/\s*\d+|回复)\s*$")
#: A list item's marker, "(1)" or "（1）", at the start of a line.
_MARKER = re.compile(r"^\s*[(（]\d+[)）]")
_CJK = re.compile(r"[\u4e00-\u9fff]")
#: A section title's words in one language (004 gives each in Chinese and English).
_TITLE_PART = re.compile(r"[\u4e00-\u9fff]+|[A-Za-z][A-Za-z ,'-]*[A-Za-z]")

#: Number words.  "one" and 一 are left out in both languages: each is also an
#: article ("a", 一个), so neither says a count the other must carry.
_EN_WORDS = {
    "zero": 0, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8, "nine": 9, "ten": 10,
    "twice": 2, "second": 2, "third": 3, "million": 1_000_000,
}
_EN_WORD = re.compile(r"\b(" + "|".join(_EN_WORDS) + r")\b", re.IGNORECASE)
#: Simplified and Traditional forms alike (两 and 兩, 万 and 萬: 001 is in Traditional Chinese).
_ZH_DIGITS = {"零": 0, "〇": 0, "一": 1, "二": 2, "两": 2, "兩": 2, "三": 3, "四": 4, "五": 5, "六": 6, "七": 7, "八": 8, "九": 9}
_ZH_UNITS = {"十": 10, "百": 100, "千": 1000}
_ZH_NUMERAL = re.compile(r"[零〇一二两兩三四五六七八九十百千万萬]+")
#: Words written with a numeral that state no number: 万智牌 (Magic: the
#: Gathering), 十字 (a cross, holy damage's icon), 并无二致 ("no different").
_NOT_NUMBERS = re.compile(r"[万萬]智|十字|[无無]二致")
_DIGITS = re.compile(r"(?<![\d.])\d+(?:,\d{3})*(?!\d)")


def _zh_value(run: str) -> int:
    """The value of a run of Chinese numerals (一百万 = 1,000,000; 十二 = 12)."""
    total, section, digit = 0, 0, None
    for ch in run:
        if ch in _ZH_DIGITS:
            digit = _ZH_DIGITS[ch]
        elif ch in "万萬":
            total += (section + (digit or 0) or 1) * 10_000
            section, digit = 0, None
        else:
            section += (1 if digit is None else digit) * _ZH_UNITS[ch]
            digit = None
    return total + section + (digit or 0)


def _blank(pattern: re.Pattern[str], text: str) -> str:
    """``text`` with what ``pattern`` matches blanked out, every other character where it was."""
    return pattern.sub(lambda m: " " * len(m.group(0)), text)


def _stated(text: str) -> list[tuple[int, int, int]]:
    """Where ``text`` states a number, and its value: ``(start, end, value)``
    for digits and number words of either language, rule numbers left out."""
    bare = _blank(_NOT_NUMBERS, _blank(_CITE, text))
    found = [(m.start(), m.end(), int(m.group(0).replace(",", ""))) for m in _DIGITS.finditer(bare)]
    found += [(m.start(), m.end(), _EN_WORDS[m.group(0).lower()]) for m in _EN_WORD.finditer(bare)]
    found += [(m.start(), m.end(), _zh_value(m.group(0))) for m in _ZH_NUMERAL.finditer(bare)]
    return sorted(found)


def numbers(text: str) -> frozenset[int]:
    """The numbers ``text`` states, in digits or in words of either language;
    rule numbers are citations, compared as such, and 1 is left out."""
    return frozenset(v for _, _, v in _stated(text)) - {1}


#: What a number counts, read from the words right after it: a measure word
#: (個, 張, 名, 點, 種...) and a noun in Chinese of either script, or a noun
#: after at most one other word in English ("six game zones"), not a word that
#: starts another phrase ("two of them").  The first that fits wins, so the
#: longer names come first (damage types before damage).
_EN_GAP = r"\s+(?:(?!(?:of|the|a|an|to|and|or|in|per|for|at|on|as|is|are|be)\b)[a-z-]+\s+)??"
_COUNTED = tuple((what, re.compile(r"\s*(?:" + zh + ")"), re.compile(_EN_GAP + "(?:" + en + r")\b", re.IGNORECASE)) for what, zh, en in (
    ("cards", r"[張张]", r"cards?|copies"),
    ("players", r"[名位個个]?玩家|人(?!物)", r"players?"),
    ("steps", r"[個个]?步[驟骤]", r"steps?"),
    ("phases", r"[個个]?[階阶]段", r"phases?"),
    ("zones", r"[個个]?(?:[遊游]戲)?[區区]域", r"zones?"),
    ("kinds of trait", r"[個个種种]?特性", r"kinds? of traits?"),
    ("classes", r"大?[職职][業业]", r"classes"),
    ("resources", r"[個个]?[資资]源", r"resources?"),
    ("kinds of action", r"[種种]行[動动]", r"kinds? of actions?"),
    ("weapons", r"[個个件]?武器", r"weapons?"),
    ("booster packs", r"[個个]?[補补]充包", r"(?:booster )?packs?"),
    ("damage types", r"[種种][傷伤]害(?:符[號号]|[類类][型别別])", r"damage types?"),
    ("damage", r"[點点]?[傷伤]害", r"damage"),
    ("health", r"[點点]?生命", r"health"),
))
#: A count that the words before it name: "a token's cost is always zero", 代替物的費用為0.
_NAMED_BEFORE = (("cost", re.compile(r"(?:費用|费用)[為为]\s*$|\bcost is (?:always )?$", re.IGNORECASE)),)
#: A range, "4-8人": its first number counts what its last does.
_RANGE = re.compile(r"\s*(?:-|–|~|至|到|to)\s*$")
#: One is an article as well as a number ("a card", 一張牌): it counts only
#: where written in digits, or after a word that limits ("only one resource",
#: 只能放置一個資源).
_LIMITS_ONE = re.compile(r"(?:只|僅|仅)[^,，。；;]{0,3}$")
_ONLY_ONE = re.compile(r"\bonly (one)\b", re.IGNORECASE)
#: An ordinal ("the second player", 第一個玩家) or "twice" counts nothing.
_ORDINAL = re.compile(r"second|third|twice", re.IGNORECASE)


def _counted(text: str, start: int, end: int) -> str | None:
    """What the number at ``text[start:end]`` counts, if the table knows it."""
    for what, before in _NAMED_BEFORE:
        if before.search(text, max(0, start - 20), start):
            return what
    # Chinese puts no space between a number and its measure word; English does.
    chinese = _CJK.match(text, start) is not None or not text[end:end + 1].isspace()
    return next((what for what, zh, en in _COUNTED if (zh if chinese else en).match(text, end)), None)


def counts(text: str) -> dict[str, frozenset[int]]:
    """The numbers ``text`` states with what each counts (``{"cards": {60,
    30}}``), in either language; a number whose words name nothing the
    table knows counts nothing comparable and is left out."""
    # English "one" is no number word of _stated's: "only one" is added here, as a count.
    stated = sorted([(a, b, v, v != 1 or text[a:b].isdigit() or bool(_LIMITS_ONE.search(text, max(0, a - 5), a)))
                     for a, b, v in _stated(text) if not _ORDINAL.match(text[a:b]) and text[a - 1:a] != "第"]
                    + [(m.start(1), m.end(1), 1, True) for m in _ONLY_ONE.finditer(text)])
    found: dict[str, set[int]] = {}
    what_next: str | None = None
    for i in range(len(stated) - 1, -1, -1):
        start, end, value, counted = stated[i]
        what = _counted(text, start, end)
        if what is None and i + 1 < len(stated) and _RANGE.match(text[end:stated[i + 1][0]]):
            what = what_next
        what_next = what
        if what is not None and counted:
            found.setdefault(what, set()).add(value)
    return {what: frozenset(values) for what, values in found.items()}


@dataclass(frozen=True)
class Citation:
    line: int
    rule: str  # the rule cited, or ``LOST``
    under: str  # the rule under whose heading it is, or "" outside every rule
    words: str  # the words it annotates (the line's text before it), "" after the first of a list


def citations(line: str) -> list[tuple[str, str]]:
    """The rules ``line`` cites (its own heading left out), each with the words it annotates."""
    if _MAYBE_CITES.search(line) is None:
        return []
    head = _HEAD.match(line)
    rest = line[head.end():] if head else line
    out: list[tuple[str, str]] = []
    for m in _CITE.finditer(rest):
        out.append((LOST if m.group(0).startswith("Error") else m.group(0), _INTRO.sub("", rest[:m.start()])))
        tail = rest[m.end():]
        while (more := _LIST_MORE.match(tail)) is not None:
            out.append((more.group(1), ""))
            tail = tail[more.end():]
    return out


@dataclass(frozen=True)
class Rule:
    """A rule as one text states it: its heading's line, its words and their lines."""

    number: str
    head: int
    lines: tuple[int, ...] = ()
    text: str = ""
    cites: frozenset[str] = frozenset()


@dataclass
class RuleText:
    """One source's numbered rules, its sections' titles, and its citations."""

    source: str
    rules: dict[str, Rule] = field(default_factory=dict)
    titles: dict[str, tuple[str, ...]] = field(default_factory=dict)
    cited: list[Citation] = field(default_factory=list)
    #: The sections' titles its table of contents lists (before its rules start).
    listed: dict[str, tuple[str, ...]] = field(default_factory=dict)
    #: The text's lines as written, first line first (a list's items are lines).
    lines: tuple[str, ...] = ()


def title_words(title: str) -> tuple[str, ...]:
    """A section title's words in each language it is given in, lower-cased."""
    return tuple(t.lower() for t in _TITLE_PART.findall(title))


def _language(line: str) -> str:
    return "zh" if _CJK.search(line) else "en"


def _shares_file(source: Source) -> bool:
    return sum(1 for s in SOURCES.values() if s.file == source.file) > 1


def read(source: str, lines: Iterable[str]) -> RuleText:
    """The numbered rules of ``source`` in ``lines`` (its whole file, split at
    line feeds).  Where one file holds a text in two languages, each source
    keeps its language's lines, under the heading above them (002 heads its
    rules in English and translates each rule below it)."""
    me = SOURCES[source]
    bilingual = _shares_file(me)
    out = RuleText(source, lines=tuple(lines))
    current: str | None = None
    said: dict[str, list[tuple[int, str, list[str]]]] = {}
    ended = False  # the current rule's words have given way to an example or a card
    for i, line in enumerate(out.lines, start=1):
        head = _HEAD.match(line)
        if i < me.rules_from:
            if head is not None and "." not in head.group(1):
                # A contents line may run on into a page number and a second column.
                entry = re.split(r"\.{3,}", line[head.end():])[0]
                out.listed[head.group(1)] = title_words(entry)
            continue
        if head is not None and head.group(1) != current:
            current, ended = head.group(1), False
            out.rules.setdefault(current, Rule(current, i))
            said.setdefault(current, [])
            if "." not in current:
                out.titles[current] = title_words(line[head.end():])
        if _CLOSE.search(line):
            current = None
        if not line.strip() or _PAGE.match(line) or (bilingual and _language(line) != me.language):
            continue
        cites = citations(line)
        # A citation outside every rule (the reference's glossary) is checked too.
        out.cited += [Citation(i, rule, current or "", words) for rule, words in cites]
        if current is None:
            continue
        ended = ended or bool(_EXAMPLE.match(line) or _CARD.match(line))
        if not ended:
            words = line[head.end():] if head is not None else line
            said[current].append((i, _MARKER.sub(" ", words), [rule for rule, _ in cites]))
    for number, rule in out.rules.items():
        mine = said[number]
        out.rules[number] = Rule(
            number, rule.head, tuple(i for i, _, _ in mine), " ".join(w.strip() for _, w, _ in mine),
            frozenset(c for _, _, cites in mine for c in cites),
        )
    return out


def load(source: str) -> RuleText | None:
    """``source``'s rules, or None when its file is not at hand."""
    lines = lines_of(source)
    return None if lines is None else read(source, lines)


@dataclass
class TextFinding:
    """What every finding read off the rule texts has; the findings of
    comparing sources in play (``source_lint.SourceFinding``) add a game."""

    kind: str
    key: str
    rules: tuple[str, ...]
    summary: str
    #: ``file:line`` of every text involved, and the source ids they belong to.
    places: tuple[str, ...]
    sources: tuple[str, ...]


TEXTUAL = "a textual finding: no game shows it"


def _span(lines: Iterable[int]) -> str:
    at = sorted(set(lines))
    return str(at[0]) if len(at) == 1 else f"{at[0]}-{at[-1]}"


def _place(source: str, lines: Iterable[int]) -> str:
    return SOURCES[source].place(_span(lines))


def _heads(source: str, texts: Mapping[str, RuleText]) -> set[str]:
    """The rule numbers a text heads, and the sections any of whose rules it
    heads (a citation of a section points at what the text has of it); the
    two languages of one file share their headings."""
    rules = {n for x, t in texts.items() if SOURCES[x].file == SOURCES[source].file for n in t.rules}
    return rules | {n.partition(".")[0] for n in rules}


def _citing(c: Citation) -> str:
    return c.under or f"line {c.line}"


def dangling(texts: Mapping[str, RuleText]) -> tuple[list[TextFinding], list[tuple[str, str]]]:
    """Each text's citations of rules it never heads (see the module's doc)."""
    found: list[TextFinding] = []
    checks: list[tuple[str, str]] = []
    for source, text in texts.items():
        me = SOURCES[source]
        if not text.rules:
            checks.append((f"dangling_reference[{source}]", "the text numbers no rules: nothing to check"))
            continue
        heads = _heads(source, texts)
        missing: dict[tuple[str, str], list[Citation]] = {}
        for c in text.cited:
            if c.rule in heads:
                continue
            if c.rule != LOST and not me.covers_rule(c.rule):
                holders = [x for x in texts if x != source and SOURCES[x].covers_rule(c.rule)]
                if any(c.rule in _heads(x, texts) for x in holders):
                    continue
            missing.setdefault((c.rule, _citing(c)), []).append(c)
        for (rule, citing), cs in missing.items():
            if rule == LOST:
                why = "the number was lost: the text reads 'Error! Reference source not found'"
            elif me.covers_rule(rule):
                why = f"{rule} is inside the sections {source} holds, and {source} has no rule {rule}"
            else:
                others = [x for x in texts if x != source and SOURCES[x].covers_rule(rule)]
                why = f"{source} does not hold section {rule.partition('.')[0]}, and " + (
                    f"{', '.join(others)}, which {'does' if len(others) == 1 else 'do'}, {'has' if len(others) == 1 else 'have'} no rule {rule} either"
                    if others else "no other text of the game holds it"
                )
            found.append(TextFinding(
                "dangling-reference", f"dangling-reference:{source}:{rule}@{citing.replace(' ', '')}",
                tuple(me.cites_as(x) for x in (cs[0].under, rule) if x and x != LOST),
                f"{source}'s {citing} cites {'a rule' if rule == LOST else rule}, which it never heads: {why} ({TEXTUAL})",
                (_place(source, [c.line for c in cs]),), (source,),
            ))
        # Counted once per rule cited and rule citing it, as findings are.
        cited = len({(c.rule, _citing(c)) for c in text.cited})
        checks.append((f"dangling_reference[{source}]",
                       f"{len(missing)} of its {cited} citations point at no rule" if missing else f"each of its {cited} citations points at a rule"))
    return found, checks


def misdirected(text: RuleText) -> tuple[list[TextFinding], tuple[str, str] | None]:
    """Citations whose words are another section's title (see the module's doc)."""
    query = f"misdirected_reference[{text.source}]"
    if not text.titles:
        return [], None
    if SOURCES[text.source].language != "zh":
        return [], (query, "not checked: in English a one-word title ends compound terms that mean something else")
    found: list[TextFinding] = []
    for c in text.cited:
        if c.rule == LOST or not c.words:
            continue
        section, own = c.rule.partition(".")[0], c.under.partition(".")[0]
        words = c.words.lower()
        cited_title = text.titles.get(section, ())
        named = sorted(s for s, parts in text.titles.items()
                       if s not in (section, own)
                       and any(len(t) > 1 and words.endswith(t) and not _overlap(t, cited_title) for t in parts))
        if not named:
            continue
        title = " / ".join(text.titles.get(section, ())) or "no title in this text"
        names = "; ".join(f"{s} ({' / '.join(text.titles[s])})" for s in named)
        found.append(TextFinding(
            "misdirected-reference", f"misdirected-reference:{text.source}:{c.rule}@{_citing(c).replace(' ', '')}",
            tuple(SOURCES[text.source].cites_as(x) for x in (c.under, c.rule, *named) if x),
            f"{text.source}'s {_citing(c)} cites {c.rule} ({title}) for words ending in the title of {names} ({TEXTUAL})",
            (_place(text.source, [c.line]),), (text.source,),
        ))
    verdict = f"{len(found)} of its citations annotate another section's title" if found else "no citation annotates another section's title"
    return found, (query, verdict)


def _overlap(title: str, others: Iterable[str]) -> bool:
    """Do the words of ``title`` and of ``others`` share a word (a Chinese
    character; an English word up to a plural's "s")?  "links (707)" fits
    707 "adding links" though 705 is "links"."""
    def units(t: str) -> set[str]:
        return set(_CJK.findall(t)) | {w.removesuffix("s") for w in re.findall(r"[a-z]+", t) if len(w) > 2}
    mine = units(title)
    return any(mine & units(o) for o in others)


def _related(a: str, b: str) -> bool:
    """A rule and one of its own sub-rules (410.6, 410.6b) point at the same place."""
    short, long = sorted((a, b), key=len)
    return long.startswith(short) and (len(long) == len(short) or long[len(short)] == "." or long[len(short):].isalpha())


def _unmatched(cites: set[str], others: set[str]) -> set[str]:
    """The citations in ``cites`` that none of ``others`` matches."""
    return {c for c in cites if not any(_related(c, o) for o in others)}


def _show(values: set[int] | set[str]) -> str:
    return ", ".join(f"{v:,}" if isinstance(v, int) else "a reference it lost" if v == LOST else v for v in sorted(values)) or "none"


@dataclass
class _Compared:
    """Rules of two texts compared pair by pair: the clashes, how many pairs,
    how many where one only adds to the other, and the first text's numbers
    of the pairs that state numbers or citations on both sides and share
    none of them."""

    found: list[TextFinding] = field(default_factory=list)
    pairs: int = 0
    one_sided: int = 0
    unrelated: list[str] = field(default_factory=list)


def _compare(kind: str, first: RuleText, second: RuleText, pairs: Iterable[tuple[Rule, Rule]],
             renumber: Callable[[str], str | None] = lambda rule: rule) -> _Compared:
    """Each pair's numbers and citations, the first text's citations read in
    the second's numbering (``renumber``; None for a rule the second lacks,
    which no citation of the second can match) and shown as the first writes
    them."""
    out = _Compared()
    for mine, theirs in pairs:
        if not mine.lines or not theirs.lines:
            continue
        out.pairs += 1
        said = []
        a, b = numbers(mine.text), numbers(theirs.text)
        if a - b and b - a:
            said.append(f"the numbers {_show(a - b)} in {first.source} against {_show(b - a)} in {second.source}")
        renumbered = {c: renumber(c) for c in mine.cites}
        written = {r: c for c, r in renumbered.items() if r is not None}
        lacking = {c for c, r in renumbered.items() if r is None}
        only_a, only_b = _unmatched(set(written), set(theirs.cites)), _unmatched(set(theirs.cites), set(written))
        if (a or mine.cites) and (b or theirs.cites) and not a & b and not set(written) - only_a:
            out.unrelated.append(mine.number)
        if (only_a or lacking) and only_b:
            shown = sorted([written[c] if written[c] == c else f"{written[c]} ({second.source} {c})" for c in only_a]
                           + [f"{c} (no rule of {second.source})" for c in lacking])
            said.append(f"{first.source} cites {', '.join(shown)} where {second.source} cites {_show(only_b)}")
        if not said:
            out.one_sided += a != b or bool(only_a or only_b or lacking)
            continue
        at = f"{mine.number} in {first.source} and {'' if mine.number == theirs.number else theirs.number + ' '}in {second.source}"
        rules = (SOURCES[first.source].cites_as(mine.number),)
        if kind != "translation-clash":
            rules += (SOURCES[second.source].cites_as(theirs.number),)
        out.found.append(TextFinding(
            kind, f"{kind}:{first.source}+{second.source}:{mine.number}", rules,
            f"{at}: {'; '.join(said)} ({TEXTUAL})",
            (_place(first.source, mine.lines), _place(second.source, theirs.lines)), (first.source, second.source),
        ))
    return out


def translation(first: RuleText, second: RuleText) -> tuple[list[TextFinding], tuple[str, str]]:
    """Rules that the two languages of one text both state, whose versions
    each carry a number or a citation the other lacks."""
    pairs = [(mine, second.rules[n]) for n, mine in first.rules.items() if n in second.rules]
    out = _compare("translation-clash", first, second, pairs)
    verdict = f"{len(out.found)} of the {out.pairs} rules both state differ" if out.found else f"the {out.pairs} rules both state agree"
    return out.found, (f"translation_clash[{first.source} {second.source}]", f"{verdict}; in {out.one_sided} more, one only adds to the other")


def aligned(older: RuleText, later: RuleText, concordance: Concordance) -> list[tuple[Rule, Rule]]:
    """The rules of two versions paired through ``concordance``: a section it
    pairs, and that section's sub-rules by number or by their declared moves;
    a section it leaves out, and a rule the later version lacks, are not
    compared."""
    sections = concordance.sections
    return [
        (rule, later.rules[at]) for n, rule in older.rules.items()
        if n.partition(".")[0] in sections and (at := concordance.rule(n)) in later.rules
    ]


def version(older: RuleText, later: RuleText, concordance: Concordance) -> tuple[list[TextFinding], list[tuple[str, str]]]:
    """Rules that two versions of one rulebook both state, paired through
    ``concordance``, whose versions each carry a number or a citation the
    other lacks once the older's citations are renumbered; and how far the
    citations bear the concordance out."""
    pairs = aligned(older, later, concordance)
    out = _compare("version-clash", older, later, pairs, concordance.rule)
    names = f"{older.source} {later.source}"
    verdict = f"{len(out.found)} of the {out.pairs} rules both state differ" if out.found else f"the {out.pairs} rules both state agree"
    checks = [(f"version_clash[{names}]", f"{verdict}; in {out.one_sided} more, one only adds to the other")]
    return out.found, checks + [(f"version_concordance[{names}]", f"{_bears_out(pairs, concordance)}; {_apart(out.unrelated, concordance)}")]


def _apart(unrelated: list[str], concordance: Concordance) -> str:
    """The pairs that state numbers or citations on both sides and share none:
    one the concordance declares the same rule rewritten is only counted; any
    other is named, as a place where the concordance may pair two different
    rules (a move it lacks)."""
    kept = {k.older for k in concordance.kept}
    declared = [n for n in unrelated if n in kept]
    suspect = [n for n in unrelated if n not in kept]
    said = (f"{len(unrelated)} pairs state numbers or citations on both sides and share none; "
            f"{len(declared)} of them declared one rule rewritten")
    if not suspect:
        return said
    return f"{said}; not declared, and maybe two different rules: {', '.join(suspect)}"


def _bears_out(pairs: Iterable[tuple[Rule, Rule]], concordance: Concordance) -> str:
    """Do the paired rules' citations bear out each entry of the concordance?
    An older rule's citation of a section agrees with the section's entry
    when the later rule cites its new number.  Where the later rule cites
    the same sub-rule under another section of that chapter instead, the
    citation goes against the entry if no entry gives that section (the
    number the entry should have given); if another entry does, one of the
    two texts cites the wrong section (000's "healed (see 405)"), which says
    nothing against the concordance and is only counted.  An entry goes
    wrong when more citations go against it than agree with it."""
    sections = concordance.sections
    taken = set(sections.values())
    agree: dict[str, int] = {}
    against: dict[str, set[str]] = {}
    slips = 0
    for mine, theirs in pairs:
        for cited in mine.cites:
            section, _, rest = cited.partition(".")
            if section not in sections or (renumbered := concordance.rule(cited)) is None:
                continue
            if any(_related(renumbered, c) for c in theirs.cites):
                agree[section] = agree.get(section, 0) + 1
                continue
            # A section for a section, a sub-rule for the same sub-rule.
            elsewhere = {c for c in theirs.cites if (s := c.partition(".")[0]) != sections[section] and s[0] == section[0]
                         and (c == s if not rest else c != s and _related(c, f"{s}.{rest}"))}
            slips += any(c.partition(".")[0] in taken for c in elsewhere)
            if wrong := {c for c in elsewhere if c.partition(".")[0] not in taken}:
                against.setdefault(section, set()).update(f"{mine.number} cites {cited} as {c}" for c in wrong)
    wrong_entries = sorted(s for s in against if len(against[s]) > agree.get(s, 0))
    borne = (f"the paired rules' citations agree on {sum(agree.values())} citations under {len(agree)} of its "
             f"{len(sections)} entries; {slips} more point at another entry's section (a text that cites the wrong section, or a pair numbered apart)")
    if not wrong_entries:
        return f"{borne}; none goes against an entry"
    return borne + "; the citations go against " + "; ".join(
        f"{s} -> {sections[s]} ({', '.join(sorted(against[s]))}; {agree.get(s, 0)} agree)" for s in wrong_entries)


#: A line of titles, comma-separated: the contents of a text that numbers nothing.
_CONTENTS_SPLIT = re.compile(r"[,，、]")
_NOT_A_TITLE = re.compile(r"[\s。:：]")
#: An example inside a paragraph runs to the end of its sentence.
_INLINE_EXAMPLE = re.compile(r"(?:例如|示例)[^。]*。?")
#: A bullet that defines a name: "·熊形態:有些德魯伊技能...".
_BULLET_HEAD = re.compile(r"^\s*·\s*([^:：·\s]{1,12})\s*[:：]")
#: A glossary's chapter title ("10. Glossary"), and an entry's head: its term,
#: maybe the rule it points at, and a colon ("Ongoing (305.2): ...").
_GLOSSARY = re.compile(r"^\s*\d{1,2}\.\s*Glossary\s*$")
_GLOSSARY_HEAD = re.compile(r"^\s*([^\s:(][^:(]{0,40}?)\s*(?:\([^)]*\))?:\s")
_PARENTHESIS = re.compile(r"\s*\([^)]*\)")
_LIST_SPLIT = re.compile(r"\s*,\s*(?:and\s+)?|\s+and\s+")


#: The end of a sentence at the end of a line, after which a term's head at the margin starts the next entry.
_SENTENCE_END = re.compile(r"[.”\")]\s*$")


def glossary(lines: tuple[str, ...]) -> dict[str, tuple[int, int]]:
    """The entries of a text's glossary: each term's first and last line
    (an entry runs to the next blank line, or to a line that starts with a
    capitalized term's head at the margin after a sentence ends: CR7.4 sets
    "Character (300.1):" under "Chain" with no blank line); empty where the
    text has none."""
    start = next((i for i, line in enumerate(lines, start=1) if _GLOSSARY.match(line)), None)
    out: dict[str, tuple[int, int]] = {}
    if start is None:
        return out
    term, first = None, 0
    for i in range(start + 1, len(lines) + 2):
        line = lines[i - 1] if i <= len(lines) else ""
        m = _GLOSSARY_HEAD.match(line)
        if term is not None and m and line[:1].isupper() and _SENTENCE_END.search(lines[i - 2]):
            out.setdefault(term, (first, i - 1))
            term, first = m.group(1), i
        elif term is not None and not line.strip():
            out.setdefault(term, (first, i - 1))
            term = None
        elif term is None and m:
            term, first = m.group(1), i
    return out


def glossary_list(lines: tuple[str, ...], entry: tuple[int, int], lead: str) -> list[str]:
    """The names a glossary entry lists after ``lead`` ("Current keywords are:"), asides in brackets left out."""
    text = " ".join(lines[i - 1].strip() for i in range(entry[0], entry[1] + 1))
    _, found, listed = text.partition(lead)
    return [n for n in _LIST_SPLIT.split(_PARENTHESIS.sub("", listed).strip().rstrip(".")) if n] if found else []


@dataclass
class SectionText:
    """A text that numbers no rules (001), read by the sections its contents
    line lists: each runs from the line that is its title to the next title's."""

    source: str
    lines: tuple[str, ...]
    #: Each listed title's heading line and its section's last line.
    sections: dict[str, tuple[int, int]] = field(default_factory=dict)

    def bullet_heads(self, heading: str) -> list[tuple[int, str]]:
        """The names the section ``heading`` defines in a bulleted list ("·熊形態:..."), with their lines."""
        first, last = self.sections.get(heading, (0, -1))
        return [(i, m.group(1)) for i in range(first + 1, last + 1) if (m := _BULLET_HEAD.match(self.lines[i - 1]))]

    def passage(self, heading: str, anchor: str) -> tuple[int, str]:
        """The line of the section ``heading`` that holds ``anchor``, and its
        words without examples; LookupError when there is no such section, or
        not exactly one such line."""
        if heading not in self.sections:
            raise LookupError(f"{self.source} has no section {heading}")
        first, last = self.sections[heading]
        at = [i for i in range(first + 1, last + 1) if anchor in self.lines[i - 1]]
        if len(at) != 1:
            raise LookupError(f"{self.source}'s {heading} has {len(at) or 'no'} lines holding {anchor!r}")
        return at[0], _INLINE_EXAMPLE.sub(" ", self.lines[at[0] - 1])


def read_sections(source: str, lines: Iterable[str]) -> SectionText:
    """``source``'s sections, by the first line that lists five titles or more."""
    out = SectionText(source, tuple(lines))
    for i, line in enumerate(out.lines, start=1):
        titles = [t.strip() for t in _CONTENTS_SPLIT.split(line) if t.strip()]
        if len(titles) >= 5 and all(len(t) <= 10 and not _NOT_A_TITLE.search(t) for t in titles):
            break
    else:
        return out
    heads = sorted((j, t) for t in titles if (j := next((j for j in range(i + 1, len(out.lines) + 1)
                                                           if out.lines[j - 1].strip() == t), None)) is not None)
    for k, (j, title) in enumerate(heads):
        out.sections[title] = (j, heads[k + 1][0] - 1 if k + 1 < len(heads) else len(out.lines))
    return out


#: A list's item: a line that starts with a bullet (000's ·, CR7.4's private-use bullet).
_BULLET = re.compile(r"^\s*[·•\uf0b7]")
#: A row of icons' names, as the reference prints its classes and damage types:
#: names set apart by wide gaps, with no sentence in between.
_ICON_GAP = re.compile(r"\s{3,}")


def list_items(rule: Rule, lines: tuple[str, ...]) -> int:
    """How many items ``rule`` lists: its bulleted lines, or the names in its
    rows of icons (``lines``: its text's lines as written)."""
    rows = [lines[i - 1] for i in rule.lines]
    bullets = sum(1 for row in rows if _BULLET.match(row))
    if bullets:
        return bullets
    icons = [_ICON_GAP.split(row.strip()) for row in rows]
    return sum(len(names) for names in icons if len(names) > 1 and not any(re.search(r"[.,:;]", n) for n in names))


def basic(text: SectionText, versions: Mapping[str, RuleText], concordance: BasicConcordance) -> tuple[list[TextFinding], list[tuple[str, str]]]:
    """Each passage of an unnumbered text against its rule in each numbered
    version the concordance pairs it with: where both count one thing (cards,
    players, phases...) and each states a figure for it that the other does
    not, or where they name steps in different orders; and each of its lists
    of names against the later version's (``_named_lists``).  How far the
    pairs bear the concordance out: a pair whose two sides count, but count
    different things, most likely pairs two different rules."""
    located: dict[str, tuple[int, str]] = {}
    lost: list[str] = []
    for p in concordance.passages:
        try:
            located[p.key] = text.passage(p.heading, p.anchor)
        except LookupError as exc:
            lost.append(f"{p.key} ({exc})")
    found: list[TextFinding] = []
    checks: list[tuple[str, str]] = []
    for source in (concordance.seed, concordance.later):
        other = versions.get(source)
        if other is None:
            continue
        pairs = agree = one_sided = one_side_counts = 0
        apart: list[str] = []
        absent = [f"{p.key} ({source} has no rule {n})" for p, n in concordance.rules(source) if n not in other.rules]
        names = f"{text.source} {source}"
        for p, number in concordance.rules(source):
            if p.key not in located or number not in other.rules:
                continue
            line, words = located[p.key]
            rule = other.rules[number]
            mine, theirs = counts(words), counts(rule.text)
            if p.listed is not None and (listed := list_items(rule, other.lines)):
                theirs = {**theirs, p.listed: theirs.get(p.listed, frozenset()) | {listed}}
            pairs += 1
            order, unordered = _order(words, rule.text, concordance.names(p, source))
            absent += [f"{p.key} ({w} not in {who})" for w, who in unordered]
            both = sorted(mine.keys() & theirs.keys())
            if not both and not order:
                if mine and theirs:
                    apart.append(p.key)
                else:
                    one_side_counts += 1
                continue
            differ = [w for w in both if mine[w] - theirs[w] and theirs[w] - mine[w]]
            if not differ and not order:
                agree += 1
                one_sided += any(mine[w] != theirs[w] for w in both)
                continue
            said = "; ".join([f"{_show(set(mine[w]))} {w} in {text.source} against {_show(set(theirs[w]))} in {source}" for w in differ]
                             + ([f"{text.source} names {', '.join(order[0])} in this order, {source} {', '.join(order[1])}"] if order else []))
            found.append(TextFinding(
                "basic-clash", f"basic-clash:{text.source}+{source}:{p.key}", (SOURCES[source].cites_as(number),),
                f"{text.source}'s {p.heading} (\"{p.anchor}\") and {number} in {source}: {said}; "
                f"concordance entry {p.key}, {p.subject} ({TEXTUAL})",
                (_place(text.source, [line]), _place(source, rule.lines)), (text.source, source),
            ))
        clashing = sum(1 for f in found if f.sources == (text.source, source))
        verdict = (f"{clashing} of the {pairs} pairs differ in what they count or in the order they name things" if clashing
                   else f"none of the {pairs} pairs differs in what they count or in the order they name things")
        verdict += f"; {agree} agree on all they both count, in {one_sided} of them one only adds to the other"
        borne = (f"{agree + clashing} of its {pairs} pairs count the same thing on both sides; "
                 f"in {one_side_counts} only one side counts")
        if apart:
            borne += f"; these count on both sides and share nothing they count, so may pair two different rules: {', '.join(apart)}"
        if source == concordance.later and concordance.lists:
            more, named, unnamed = _named_lists(text, other, concordance)
            found += more
            verdict += f"; {len(more)} of its {len(concordance.lists)} lists of names lack names of {text.source}'s"
            borne += f"; {named} names in its lists are terms of {source}'s glossary"
            absent += unnamed
        checks.append((f"basic_clash[{names}]", verdict))
        if lost or absent:
            borne += f"; not found in the texts: {', '.join(lost + absent)}"
        checks.append((f"basic_concordance[{names}]", borne))
    return found, checks


def _order(words: str, rule: str, names: list[tuple[str, str | None]]) -> tuple[tuple[list[str], list[str]] | None, list[tuple[str, str]]]:
    """The things a passage names in order, as each side writes them, where
    the two sides name them in different orders (else None); and each name
    a side does not hold, with the side's text ("the passage" or "the rule")."""
    lower = rule.lower()
    missing = [(b, "the passage") for b, _ in names if b not in words]
    missing += [(t or f"a word for {b}", "the rule") for b, t in names if t is None or t.lower() not in lower]
    if not names or missing:
        return None, missing
    mine = sorted(names, key=lambda n: words.index(n[0]))
    theirs = sorted(names, key=lambda n: lower.index(str(n[1]).lower()))
    return (None if mine == theirs else ([b for b, _ in mine], [str(t) for _, t in theirs])), []


def _named_lists(text: SectionText, later: RuleText, concordance: BasicConcordance) -> tuple[list[TextFinding], int, list[str]]:
    """Each list of names of the basic rules against the list the later
    version's glossary gives under one entry: a name of the basic list
    whose term the later list lacks is a clash.  Also how many of the
    declared terms the later glossary defines, and what was not found."""
    terms = glossary(later.lines)
    found: list[TextFinding] = []
    named = 0
    unnamed: list[str] = []
    for named_list in concordance.lists:
        heads = text.bullet_heads(named_list.heading)
        vocabulary = dict(named_list.names)
        named += sum(1 for t in vocabulary.values() if t in terms)
        unnamed += [f"{named_list.key} ({b}: no {later.source} glossary entry {t})" for b, t in vocabulary.items() if t not in terms]
        unnamed += [f"{named_list.key} ({b}: no term declared for it)" for _, b in heads if b not in vocabulary]
        entry = terms.get(named_list.entry)
        listed = glossary_list(later.lines, entry, named_list.lead) if entry else []
        if not heads or entry is None or not listed:
            where = f"{text.source}'s {named_list.heading}" if not heads else f"{later.source}'s glossary entry {named_list.entry}"
            unnamed.append(f"{named_list.key} (no list in {where})")
            continue
        lacking = [(b, vocabulary[b]) for _, b in heads if b in vocabulary and vocabulary[b] not in listed]
        if not lacking:
            continue
        found.append(TextFinding(
            "basic-clash", f"basic-clash:{text.source}+{later.source}:{named_list.key}", (f"{later.source} glossary: {named_list.entry}",),
            f"{text.source}'s {named_list.heading} names {len(heads)} {named_list.subject.removeprefix('the ')}; the list of them in "
            f"{later.source}'s glossary ({named_list.entry}, {len(listed)} names) lacks {len(lacking)}: "
            f"{', '.join(f'{t} ({b})' for b, t in lacking)}; concordance entry {named_list.key} ({TEXTUAL})",
            (_place(text.source, [i for i, _ in heads]), _place(later.source, range(entry[0], entry[1] + 1))),
            (text.source, later.source),
        ))
    return found, named, unnamed


#: What follows a count to say the passage enumerates what it counts: the
#: counted words (a few English words, "card types", "kinds of trait"; in
#: Chinese a measure word and a noun, 種牌類別, 大職業), then a colon, or a
#: full stop and "they are" ("three phases. In order, they are start...").
_EN_ENUMERATED = re.compile(r"\s+([A-Za-z][A-Za-z-]*(?:\s+[A-Za-z][A-Za-z-]*){0,3}?)(?:\s*:|\.\s+(?:In order,\s+)?(?:they|these) are\b)")
_ZH_ENUMERATED = re.compile(r"\s*([^\s\d,，。:：;；、()（）“”\"·]{1,12}?)[ \t]*(?:[:：]|[,，]\s*(?:分别为|分別為)|(?=[ \t]*(?:\n|$)))")
#: Where an English passage may enumerate a count: no colon and no "they are", no list.
_EN_MAYBE = re.compile(r":|\b(?:they|these) are\b")
#: A Chinese count whose next sentence starts its items in words (兩個方面。首先...其次...).
_ZH_FIRSTLY = re.compile(r"\s*([^\s\d,，。:：;；、()（）]{1,12}?)。\s*首先")
_ZH_THEN = re.compile(r"其次|再次|最[後后]")
#: A Chinese count that divides (分為兩類): a comma after what it counts leads to the list too.
_ZH_DIVIDES = re.compile(r"(?:分为|分為)\s*$")
_ZH_DIVIDED = re.compile(r"\s*([^\s\d,，。:：;；、()（）]{1,4}?)[,，]")
#: A Chinese list before its count: "分為力量、敏捷和智力三種".
_ZH_LIST_BEFORE = re.compile(r"(?:分为|分為)([^,，。:：;；]+?[、和及与與][^,，。:：;；]+?)\s*$")
#: A list's items in a sentence: commas, semicolons where an item holds a
#: comma ("a resource row for resources; an ally row..."), the last joined by
#: "and" (以及, 和, 及, 與).
_EN_ITEMS = re.compile(r"\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or)\s+")
_EN_ITEMS_WITH_COMMAS = re.compile(r"\s*;\s*(?:and\s+)?")
_ZH_ITEMS = re.compile(r"\s*[,，、;；]\s*(?:以及|及|和|與|与|或是|或)?\s*|以及|或是|和|與|与|及|或")
#: A sentence's end: an English full stop before a space, a Chinese one, or a
#: Chinese semicolon (a clause of its own).
_EN_END = re.compile(r"\.(?=\s|$)")
_ZH_END = re.compile(r"[。;；]|\n")
#: A list that says it is not whole ("such as", 等) counts no items.
_OPEN_LIST = re.compile(r"\b(?:such as|e\.g|etc|including)\b|等$")
#: A numbered list's marker at the start of a line ("1.宣告:..."), which counts nothing.
_ROW_NUMBER = re.compile(r"^[ \t]*\d{1,2}[.、．](?!\d)", re.MULTILINE)
#: A line that names one item with a colon ("德魯伊:...", "Arcane: ..."), and the marks of a sentence.
_NAME_HEAD = re.compile(r"^\s*(?:[A-Za-z][A-Za-z' -]{0,24}|[^\s\d:：,，。·]{1,8})[:：]")
_SENTENCE = re.compile(r"[.,;:。,，；:：]")
_BRACKETS = re.compile(r"\([^()]*\)|（[^（）]*）")


@dataclass(frozen=True)
class Enumeration:
    """A count a passage states, with the items it goes on to list (None
    where what follows is no list lint can read)."""

    line: int
    value: int
    what: str
    items: tuple[str, ...] | None
    item_lines: tuple[int, ...] = ()


def _block(rows: list[tuple[int, str]], start: int) -> tuple[list[str], list[int]] | None:
    """The items the rows from ``start`` on list, one a row: bullets, short
    names each with a colon, or a row of names set apart by wide gaps (the
    reference's icons; a second row may go on with them).  Each item is of
    one shape, all names or all sentences; None for fewer than two items."""
    kept = [(i, row) for i, row in rows[start:] if row.strip()]
    if not kept:
        return None
    def shape(row: str) -> str | None:
        names = _ICON_GAP.split(row.strip())
        if len(names) > 1 and not any(_SENTENCE.search(n) for n in names):
            return "icons"
        if _BULLET.match(row):
            return "bullet"
        if _ROW_NUMBER.match(row):
            return "numbered"
        return "head" if _NAME_HEAD.match(row) else None
    first = shape(kept[0][1])
    if first is None:
        return None
    items: list[str] = []
    lines: list[int] = []
    for i, row in kept:
        if shape(row) != first:
            break
        named = _ICON_GAP.split(row.strip()) if first == "icons" else [row.strip()]
        items += named
        lines.append(i)
    if first == "bullet" and len({bool(_SENTENCE.search(item[1:].strip())) for item in items}) > 1:
        return None
    return (items, lines) if len(items) > 1 else None


def enumerations(rows: list[tuple[int, str]], language: str, subrules: tuple[tuple[int, str], ...] = ()) -> list[Enumeration]:
    """The counts ``rows`` (a passage's lines, by number) state and then
    enumerate: a count whose words end at a colon, or in "they are", with
    the items up to the sentence's end; or whose words end the row, with the
    rows after it as the items (``_block``), or, where a colon ends the
    rule, its sub-rules (``subrules``: each heading's line and number)."""
    text = "\n".join(row for _, row in rows)
    if language == "en" and not _EN_MAYBE.search(text):
        return []
    starts = [0]
    for _, row in rows[:-1]:
        starts.append(starts[-1] + len(row) + 1)
    flat = _blank(_BRACKETS, text)
    out: list[Enumeration] = []
    for a, b, value in _stated(_blank(_ROW_NUMBER, text)):
        if value < 2 or _ORDINAL.match(text[a:b]) or text[a - 1:a] == "第":
            continue
        row = bisect.bisect_right(starts, a) - 1
        chinese = _CJK.match(text, a) is not None or _CJK.match(text, b) is not None
        if not chinese and not text[b:b + 1].isspace():
            continue  # "2H", "Two-Handed": a name, not a count
        m = (_ZH_ENUMERATED if chinese else _EN_ENUMERATED).match(flat, b)
        if chinese and m is None and _ZH_DIVIDES.search(flat, starts[row], a):
            m = _ZH_DIVIDED.match(flat, b)
        if chinese and m is None and (before := _ZH_LIST_BEFORE.search(flat, starts[row], a)):
            items = [x for x in _ZH_ITEMS.split(before.group(1)) if x.strip()]
            if len(items) > 1:
                out.append(Enumeration(rows[row][0], value, re.sub(r"[,，。].*", "", flat[b:b + 4]), tuple(items), (rows[row][0],)))
            continue
        if chinese and m is None and (firstly := _ZH_FIRSTLY.match(flat, b)):
            # The first item is the rest of this row; each further one follows in it or starts a row after it.
            then = list(itertools.takewhile(lambda r: _ZH_THEN.match(r[1].strip()), rows[row + 1:]))
            markers = ["首先", *_ZH_THEN.findall(flat, firstly.end(), starts[row + 1] - 1 if row + 1 < len(starts) else len(flat)),
                       *(_ZH_THEN.match(r.strip()).group(0) for _, r in then)]
            out.append(Enumeration(rows[row][0], value, firstly.group(1), tuple(markers) if len(markers) > 1 else None,
                                   (rows[row][0], *(i for i, _ in then))))
            continue
        if m is None:
            continue
        what = re.sub(r"\s+", " ", m.group(1))
        rest = flat[m.end():starts[row + 1] - 1 if row + 1 < len(starts) else len(flat)]
        block = _block(rows, row + 1) if not rest.strip() else None
        if block is not None:
            items, lines = block
        elif not flat[m.end():].strip() and m.group(0).rstrip().endswith((":", "：")) and len(subrules) > 1:
            items, lines = [n for _, n in subrules], [i for i, _ in subrules]
        elif not rest.strip() and (language == "zh" or not flat[m.end():].strip()):
            if not m.group(0).rstrip().endswith((":", "：")):
                continue  # a count that ends its row with no colon and no list after it enumerates nothing
            items, lines = None, []
        else:
            end = (_ZH_END if language == "zh" else _EN_END).search(flat, m.end())
            listed = flat[m.end():end.start() if end else len(flat)].strip()
            split = _ZH_ITEMS if language == "zh" else _EN_ITEMS_WITH_COMMAS if ";" in listed else _EN_ITEMS
            items = None if _OPEN_LIST.search(listed) else [x for x in split.split(listed) if x.strip()]
            if m.group(0).rstrip().endswith((",", "，")) and not (items and len(items) > 1):
                continue  # "分為三個階段,某些階段..." goes on with a sentence, not a list
            last = end.start() if end else len(flat)
            lines = sorted({rows[bisect.bisect_right(starts, p) - 1][0] for p in (m.end(), max(m.end(), last - 1))})
        out.append(Enumeration(rows[row][0], value, what, tuple(items) if items and len(items) > 1 else None, tuple(lines)))
    return out


#: A rule's number: its section, and the rule and letter under it.
_NUMBER = re.compile(r"^(\d{3})(?:\.(\d+)([a-z]?))?$")


def _parent(number: str) -> str | None:
    """The rule a sub-rule is under: 501.1a under 501.1, 501.1 under 501."""
    m = _NUMBER.match(number)
    if m is None or m.group(2) is None:
        return None
    return f"{m.group(1)}.{m.group(2)}" if m.group(3) else m.group(1)


def _passages(text: RuleText) -> list[tuple[str, list[tuple[int, str]], tuple[tuple[int, str], ...]]]:
    """Each rule of a numbered text with its words' lines (its heading's
    number and a list's markers left out), and each entry of its glossary,
    which runs to the next entry (the reference's rows of icons stand apart;
    a place in the glossary is named by its line)."""
    out = []
    children: dict[str, list[tuple[int, str]]] = {}
    for number, rule in text.rules.items():
        if (parent := _parent(number)) is not None:
            children.setdefault(parent, []).append((rule.head, number))
    for number, rule in text.rules.items():
        rows = []
        for i in rule.lines:
            line = text.lines[i - 1]
            head = _HEAD.match(line) if i == rule.head else None
            rows.append((i, _MARKER.sub(" ", line[head.end():] if head else line)))
        out.append((number, rows, tuple(children.get(number, ()))))
    entries = sorted(glossary(text.lines).items(), key=lambda e: e[1][0])
    for k, (_, (first, _)) in enumerate(entries):
        last = entries[k + 1][1][0] - 1 if k + 1 < len(entries) else len(text.lines)
        out.append(("glossary", [(i, text.lines[i - 1]) for i in range(first, last + 1) if not _PAGE.match(text.lines[i - 1])], ()))
    return out


#: A line that is an example as a whole (示例:...), in a text that numbers nothing.
_EXAMPLE_ROW = re.compile(r"^\s*(?:示例|例如|举例|舉例)")


def _sections(text: SectionText) -> list[tuple[str, list[tuple[int, str]], tuple[tuple[int, str], ...]]]:
    """Each section of a text that numbers nothing, or the whole text where
    it lists no sections (003), its examples left out."""
    def row(i: int) -> tuple[int, str]:
        line = text.lines[i - 1]
        return i, "" if _EXAMPLE_ROW.match(line) else _INLINE_EXAMPLE.sub(" ", line)
    spans = text.sections.items() if text.sections else [("", (0, len(text.lines)))]
    return [(title, [row(i) for i in range(first + 1, last + 1)], ()) for title, (first, last) in spans]


#: An item's name: the words before its colon, without its bullet or number.
_ITEM_NAME = re.compile(r"^[\s·•\uf0b7]*(?:\d{1,2}[.、．])?\s*([^:：]{1,12})[:：]")


def _item_name(item: str) -> str:
    m = _ITEM_NAME.match(item)
    return m.group(1).strip() if m else re.sub(r"\s+", " ", item).strip(" ·•\uf0b7")[:24]


def passages(text: RuleText) -> list[tuple[str, list[tuple[int, str]], tuple[tuple[int, str], ...]]]:
    """A text's passages, each with its rows and its sub-rules' headings: a
    numbered text's rules and glossary entries, or the sections of one that
    numbers nothing (the whole text where it lists none)."""
    return _passages(text) if text.rules else _sections(read_sections(text.source, text.lines))


def _where(source: str, where: str, line: int) -> tuple[str, str]:
    """How a finding cites a place of a passage, and how it names it: a
    rule by its number, the glossary and a text that numbers nothing by
    their section and line."""
    if where[:1].isdigit():
        return SOURCES[source].cites_as(where), where
    shown = f"{where} (line {line})" if where else f"line {line}"
    return f"{source} {shown}", shown


def _key_place(where: str, line: int) -> str:
    """A place in a finding's key: a rule's number or a section's title, a line in the glossary or a text without either."""
    return where if where and where != "glossary" else f"{where or 'line'}{line}"


#: A measure word before what a Chinese count counts (個特性, 種牌類別).
_MEASURE = re.compile(r"^[個个種种類类大件名張张位項项條条]")


def _specific(what: str) -> bool:
    """Are a count's words specific enough to name one thing wherever the
    text uses them: two English words or more ("card types", not "zones",
    which the reference uses for all zones and for those players share), or
    a Chinese noun of two characters or more after its measure word?"""
    return len(what.split()) > 1 if what.isascii() else len(_MEASURE.sub("", what)) > 1


def self_count(source: str, passages: list[tuple[str, list[tuple[int, str]], tuple[tuple[int, str], ...]]]) -> tuple[list[TextFinding], tuple[str, str]]:
    """Each count a passage of one text states and goes on to enumerate
    (``enumerations``), against the items it lists: a finding where the two
    differ.  Also each count's words where the text states them after
    another number, enumerated or not ("six card types", "seven card
    types"): a finding where the numbers differ (``_specific`` words only)."""
    found: list[TextFinding] = []
    pairs = agree = 0
    unread: list[str] = []
    counted: dict[str, dict[tuple[str, int], int]] = {}
    for where, rows, subrules in passages:
        for e in enumerations(rows, SOURCES[source].language, subrules):
            rule, shown = _where(source, where, e.line)
            if e.items is None:
                unread.append(f"{shown}: {e.value} {e.what}")
                continue
            pairs += 1
            counted.setdefault(e.what, {})[(where, e.line)] = e.value
            if len(e.items) == e.value:
                agree += 1
                continue
            found.append(TextFinding(
                "self-count", f"self-count:{source}:{_key_place(where, e.line)}:{e.what.replace(' ', '-')}", (rule,),
                f"{source}'s {shown} counts {e.value} {e.what} and then lists {len(e.items)}: "
                f"{', '.join(_item_name(x) for x in e.items)} ({TEXTUAL})",
                (_place(source, [e.line]), _place(source, e.item_lines)), (source,),
            ))
    listed = len(found)
    words = {what: re.compile(r"\s*" + re.escape(what).replace(r"\ ", r"\s+") + r"\b", re.IGNORECASE) for what in counted if _specific(what)}
    for where, rows, _ in passages:
        text = "\n".join(row for _, row in rows)
        if not any(pattern.search(text) for pattern in words.values()):
            continue
        for a, b, value in _stated(_blank(_ROW_NUMBER, text)):
            for what, pattern in words.items():
                if value > 1 and pattern.match(text, b):
                    counted[what].setdefault((where, rows[text.count("\n", 0, a)][0]), value)
    twice = {what: said for what, said in counted.items() if what in words and len(said) > 1}
    for what, said in twice.items():
        if len(set(said.values())) == 1:
            continue
        places = [(_where(source, w, i), i, v) for (w, i), v in said.items()]
        found.append(TextFinding(
            "self-count", f"self-count:{source}:{what.replace(' ', '-')}@" + "+".join(_key_place(w, i) for w, i in said),
            tuple(dict.fromkeys(r for (r, _), _, _ in places)),
            f"{source} counts {what} differently: {', '.join(f'{v} in {shown}' for (_, shown), _, v in places)} ({TEXTUAL})",
            tuple(_place(source, [i]) for _, i, _ in places), (source,),
        ))
    verdict = (f"{pairs} counts it goes on to enumerate, {agree} agree with the items it lists"
               + (f", {listed} {'does' if listed == 1 else 'do'} not" if listed else "")
               + (f"; {len(twice)} of their words it states twice or more, "
                  + (f"{len(found) - listed} with different numbers" if len(found) > listed else "each time with the same number")
                  if twice else "; it states none of their words twice"))
    if unread:
        verdict += f"; followed by no list lint can read: {', '.join(unread)}"
    return found, (f"self_count[{source}]", verdict)


#: A glossary entry's head that cites its rule: the term, then rule numbers in brackets ("Chain (415.6):", "Play (Noun, 415.8):").
_GLOSSARY_CITES = re.compile(r"^\s*[^\s:(][^:(]{0,40}?\s*\(([^)]*\d[^)]*)\)\s*:")
_RULE_NUMBER = re.compile(r"(?<![\d.])[1-9]\d{2}(?:\.\d+[a-z]?)?(?![\d.])")
#: An entry of a glossary that numbers nothing: its term, up to eight characters, and a colon (001's "再調度:").
_TERM_HEAD = re.compile(r"^\s*([^\s:：·,，。(（]{1,8})[:：]")


@dataclass(frozen=True)
class GlossaryPair:
    """A glossary entry and the passage of the same text it restates."""

    term: str
    lines: tuple[int, ...]
    words: str
    #: How the passage is named in a finding (a rule's number, a section and line), its lines and its words' counts.
    rule: str
    rule_lines: tuple[int, ...]
    said: dict[str, frozenset[int]]
    #: How it was paired: "cited", "heading" or "declared".
    how: str


def _families(text: RuleText) -> dict[str, list[Rule]]:
    """Each rule with every rule under it (403: 403, 403.1, 403.6a...), in the text's order."""
    out: dict[str, list[Rule]] = {}
    for n, rule in text.rules.items():
        at: str | None = n
        while at is not None:
            out.setdefault(at, []).append(rule)
            at = _parent(at)
    return out


def _counts_of(texts: Iterable[str]) -> dict[str, frozenset[int]]:
    """``counts`` of each text, merged: a rule's sub-rules are read one by one, so no count runs on into the next."""
    out: dict[str, frozenset[int]] = {}
    for text in texts:
        for what, values in counts(text).items():
            out[what] = out.get(what, frozenset()) | values
    return out


def _entry_words(lines: tuple[str, ...], first: int, last: int) -> tuple[tuple[int, ...], str]:
    """An entry's lines and words after its head's colon, without page footers
    and examples (an example runs to the next line that is not indented)."""
    kept: list[int] = []
    example = False
    for i in range(first, last + 1):
        line = lines[i - 1]
        example = bool(_EXAMPLE.match(line)) or (example and line[:1].isspace())
        if not example and not _PAGE.match(line) and line.strip():
            kept.append(i)
    words = "\n".join(lines[i - 1] for i in kept)
    return tuple(kept), words.partition(":")[2]


#: What a keyword entry says its keyword means: the quoted text after "It means" (Preparation's "... without paying its cost").
_MEANS = re.compile(r"\bmeans\s+[“\"]([^”\"]+)")


def _shares_phrase(meaning: str, rule: str) -> bool:
    """Do ``meaning`` and ``rule`` share two words in a row?  A keyword's
    citation may point at the rule for what it does (Preparation at 403.3's
    playing "without paying" a cost), which need not name the keyword."""
    words = re.findall(r"[a-z]+", meaning.lower())
    plain = " " + " ".join(re.findall(r"[a-z]+", rule.lower())) + " "
    return any(f" {a} {b} " in plain for a, b in zip(words, words[1:]) if len(a) > 2 and len(b) > 2)


def _term_words(term: str) -> list[str]:
    """The words of an English term that lint looks for in its rule, each cut
    to a stem ("Activate" finds "activated", "Copy" finds "copies")."""
    words = [w.lower() for w in re.findall(r"[A-Za-z]{3,}", term)]
    return [w[:max(3, len(w) - 2)] if len(w) > 4 else w.rstrip("ye") or w for w in words]


@dataclass(frozen=True)
class GlossaryCitation:
    """A glossary entry's citation of a rule that does not say what the
    entry says: the rules of the cited rule's section that name the term
    (``near``, where the cited rule names no word of it) and those that
    restate the entry word for word (``restated``, where the cited rule
    shares no four words in a row with it)."""

    term: str
    rule: str
    lines: tuple[int, ...]
    rule_lines: tuple[int, ...]
    near: tuple[str, ...] | None
    restated: tuple[str, ...]


#: How many words in a row a rule shares with an entry that it restates (a
#: sentence's worth), and how few a cited rule shares with one it does not.
_RESTATES, _SHARES = 7, 4


def _runs(text: str, size: int) -> set[tuple[str, ...]]:
    """The runs of ``size`` words in ``text``, lower-cased, apostrophes dropped."""
    words = re.findall(r"[a-z0-9]+", re.sub(r"['’]", "", text.lower()))
    return {tuple(words[i:i + size]) for i in range(len(words) - size + 1)}


def _astray(families: dict[str, list[Rule]], term: str, words: str, number: str, lines: tuple[int, ...]) -> GlossaryCitation | None:
    """The entry's citation of ``number``, if the rule with its sub-rules
    names no word of the term (a keyword's rule may instead share two words
    of what the keyword means), or shares no four words in a row with the
    entry while another rule of its section shares seven."""
    family = families[number]
    said = " ".join(r.text for r in family).lower()
    section = [(r.number, r) for r in families.get(number.partition(".")[0], ()) if r not in family]
    stems = _term_words(term)
    meaning = _MEANS.search(words)
    near = None
    if stems and not any(re.search(r"\b" + s, said) for s in stems) and not (meaning and _shares_phrase(meaning.group(1), said)):
        near = tuple(m for m, r in section if any(re.search(r"\b" + s, r.text.lower()) for s in stems))
    restated: tuple[str, ...] = ()
    if not _runs(words, _SHARES) & _runs(said, _SHARES):
        mine = _runs(words, _RESTATES)
        shared = sorted(((len(mine & _runs(r.text, _RESTATES)), m) for m, r in section), key=lambda x: -x[0])
        # The rules that share the most: a parent that repeats a phrase or two is left out.
        restated = tuple(m for k, m in shared if k and 2 * k >= shared[0][0])
    if near is None and not restated:
        return None
    return GlossaryCitation(term, number, lines, tuple(i for r in family for i in r.lines), near, restated)


def numbered_glossary(text: RuleText) -> tuple[list[GlossaryPair], list[GlossaryCitation], int]:
    """Each glossary entry of a numbered text paired with the rules it
    restates: those its head cites, each with its sub-rules; else a rule
    whose title is the term (or its plural).  Also each citation that does
    not point at what the entry says (``_astray``), and how many entries
    the glossary holds."""
    entries = glossary(text.lines)
    titles: dict[str, str] = {}
    for n, r in text.rules.items():
        if r.lines and len(r.lines) == 1 and len(r.text) < 40:
            titles.setdefault(r.text.strip().lower(), n)
    families = _families(text)
    pairs: list[GlossaryPair] = []
    astray: list[GlossaryCitation] = []
    for term, (first, last) in entries.items():
        lines, words = _entry_words(text.lines, first, last)
        head = _GLOSSARY_CITES.match(text.lines[first - 1])
        cited = [n for n in _RULE_NUMBER.findall(head.group(1)) if n in text.rules] if head else []
        how = "cited"
        if not cited and (n := next((titles[t] for t in (term.lower(), term.lower() + "s", term.lower() + "es") if t in titles), None)):
            cited, how = [n], "heading"
        if not cited:
            continue
        family = [r for n in cited for r in families[n]]
        pairs.append(GlossaryPair(term, lines, words, ", ".join(cited), tuple(i for r in family for i in r.lines),
                                  _counts_of(r.text for r in family), how))
        if how == "cited":
            astray += [a for n in cited if (a := _astray(families, term, words, n, lines)) is not None]
    return pairs, astray, len(entries)


def section_glossary(text: SectionText, heading: str, declared: tuple[GlossaryPassage, ...]) -> tuple[list[GlossaryPair], list[str], int]:
    """Each entry of the glossary section ``heading`` of a text that numbers
    nothing, paired with the passage of the same text it restates: a
    section titled with its term, else a line elsewhere that names the
    term first with a colon (a bullet, a numbered step), else the declared
    passage.  Also the declared pairs not found in the text, and how many
    entries the glossary holds."""
    first, last = text.sections.get(heading, (0, -1))
    entries = [(i, m.group(1)) for i in range(first + 1, last + 1) if (m := _TERM_HEAD.match(text.lines[i - 1]))]
    table = {d.term: d for d in declared}
    lost = [f"{d.term} (no entry of {heading})" for d in declared if d.term not in {t for _, t in entries}]
    rows = {title: rows for title, rows, _ in _sections(text)}
    pairs: list[GlossaryPair] = []
    for i, term in entries:
        words = _INLINE_EXAMPLE.sub(" ", text.lines[i - 1]).partition(":" if ":" in text.lines[i - 1] else "：")[2]
        named = [j for j in range(1, len(text.lines) + 1) if not first <= j <= last
                 and re.match(r"^\s*(?:·|\d{1,2}[.、．])?\s*" + re.escape(term) + r"\s*[:：]", text.lines[j - 1])]
        if term in rows and term != heading:
            found = [(j, line) for j, line in rows[term] if line.strip()]
            at, how = term, "heading"
        elif named:
            found = [(j, _INLINE_EXAMPLE.sub(" ", text.lines[j - 1])) for j in named]
            at, how = next(t for t, (a, b) in text.sections.items() if a <= named[0] <= b), "heading"
        elif term in table:
            d = table[term]
            try:
                found, at, how = [text.passage(d.heading, d.anchor)], d.heading, "declared"
            except LookupError as exc:
                lost.append(f"{term} ({exc})")
                continue
        else:
            continue
        pairs.append(GlossaryPair(term, (i,), words, at, tuple(j for j, _ in found), _counts_of(w for _, w in found), how))
    return pairs, lost, len(entries)


def glossary_clash(source: str, pairs: list[GlossaryPair], astray: list[GlossaryCitation],
                   entries: int, lost: list[str]) -> tuple[list[TextFinding], tuple[str, str]]:
    """Each pair's figures, each with what it counts: a finding where both
    count one thing and each states a figure for it that the other does not;
    and each citation that points past what the entry restates."""
    found: list[TextFinding] = []
    compared = agree = adds = 0
    for p in pairs:
        mine = counts(p.words)
        both = sorted(mine.keys() & p.said.keys())
        if not both:
            continue
        compared += 1
        # A figure only one side states ("share two zones: chain and play" for "share the chain and play zones") adds, not contradicts.
        differ = [w for w in both if mine[w] - p.said[w] and p.said[w] - mine[w]]
        if not differ:
            agree += 1
            adds += any(mine[w] != p.said[w] for w in both)
            continue
        rule, shown = _where(source, p.rule, p.rule_lines[0])
        said = "; ".join(f"{_show(set(mine[w]))} {w} in the entry against {_show(set(p.said[w]))} in {shown}" for w in differ)
        found.append(TextFinding(
            "glossary-clash", f"glossary-clash:{source}:{p.term.replace(' ', '-')}", (f"{source} glossary: {p.term}", rule),
            f"{source}'s glossary entry {p.term} restates {shown} ({p.how}) with other figures: {said} ({TEXTUAL})",
            (_place(source, p.lines), _place(source, p.rule_lines)), (source,),
        ))
    clashes = len(found)
    for a in astray:
        rule = SOURCES[source].cites_as(a.rule)
        why = []
        if a.restated:
            why.append(f"which shares no {_SHARES} words in a row with it, while {', '.join(a.restated)} "
                       f"{'restates' if len(a.restated) == 1 else 'restate'} it ({_RESTATES} words in a row or more)")
        if a.near is not None:
            why.append("which with its sub-rules names no word of the term; "
                       + (f"{', '.join(a.near)} {'does' if len(a.near) == 1 else 'do'}" if a.near else f"no other rule of section {a.rule.partition('.')[0]} does"))
        found.append(TextFinding(
            "glossary-clash", f"glossary-clash:{source}:{a.term.replace(' ', '-')}@{a.rule}", (f"{source} glossary: {a.term}", rule),
            f"{source}'s glossary entry {a.term} cites {rule}, {'; and '.join(why)} ({TEXTUAL})",
            (_place(source, a.lines), _place(source, a.rule_lines)), (source,),
        ))
    ways = {how: sum(1 for p in pairs if p.how == how) for how in ("cited", "heading", "declared")}
    said_how = {"cited": "by their own citation", "heading": "by a heading in the same words", "declared": "declared"}
    verdict = (f"{len(pairs)} of its {entries} entries paired with what they restate ("
               + ", ".join(f"{n} {said_how[how]}" for how, n in ways.items() if n) + f"); {compared} {'states' if compared == 1 else 'state'} a count of one thing on both sides, "
               + f"{agree} {'agrees' if agree == 1 else 'agree'}" + (f", {clashes} {'does' if clashes == 1 else 'do'} not" if clashes else "")
               + (f" (in {adds} of those that agree, one side states a figure the other does not)" if adds else ""))
    if ways["cited"]:
        verdict += (f"; {len(astray)} of their citations {'points' if len(astray) == 1 else 'point'} at a rule that names no word of the term or that another rule's words restate"
                    if astray else "; each of their citations points at a rule that names the term and is the one restated")
    if lost:
        verdict += f"; not found in the text: {', '.join(lost)}"
    return found, (f"glossary_clash[{source}]", verdict)


def rendering_pattern(rendering: str) -> str:
    """A rendering as a pattern: "…" stands for a few words of the same clause
    between its parts (提议…为攻击者 reads 提议它为攻击者, "propose it as the attacker")."""
    return r"[^\s,，。;；:：、()（）]{0,10}?".join(map(re.escape, rendering.split("…")))


@dataclass
class _TermReader:
    """The declared terms' words in one language: English patterns, or one
    Chinese text's renderings, those with a gap and then the longest first,
    so that a term whose words hold another's (被提议防御者, 防御者) is read as
    the longer."""

    english: dict[str, re.Pattern[str]] = field(default_factory=dict)
    rendered: dict[str, list[str]] = field(default_factory=dict)
    chinese: re.Pattern[str] | None = None
    groups: dict[str, str] = field(default_factory=dict)

    @classmethod
    def of(cls, source: str | None, table: Iterable[Term] | None = None) -> "_TermReader":
        table = TERMS if table is None else table
        if source is None:
            return cls(english={t.name: re.compile(t.english, re.IGNORECASE) for t in table})
        rendered: dict[str, list[str]] = {}
        for t in table:
            for r in t.renderings.get(source, ()):
                rendered.setdefault(r, []).append(t.name)
        first = sorted(rendered, key=lambda r: ("…" not in r, -len(r), r))
        groups = {f"r{i}": r for i, r in enumerate(first)}
        # A class of the first characters lets the search skip a place no rendering starts at.
        starts = "".join(sorted({re.escape(r[0]) for r in groups.values()}))
        pattern = f"(?=[{starts}])(?:" + "|".join(f"(?P<{g}>{rendering_pattern(r)})" for g, r in groups.items()) + ")"
        return cls(rendered=rendered, chinese=re.compile(pattern) if groups else None, groups=groups)

    def named(self, text: str) -> dict[str, list[str]]:
        """Each term ``text`` names, with the words it names it by (an
        English text's own, a Chinese text's declared rendering), one entry
        an occurrence."""
        out: dict[str, list[str]] = {}
        for name, pattern in self.english.items():
            for m in pattern.finditer(text):
                out.setdefault(name, []).append(m.group(0))
        for m in self.chinese.finditer(text) if self.chinese is not None else ():
            rendering = self.groups[str(m.lastgroup)]
            for name in self.rendered[rendering]:
                out.setdefault(name, []).append(rendering)
        return out


_BY_NAME = {t.name: t for t in TERMS}


def _rendered_as(words: Iterable[str]) -> str:
    return "/".join(dict.fromkeys(words))


def _term_lines(source: str, lines: tuple[str, ...], table: Iterable[Term] | None = None) -> dict[str, dict[str, list[int]]]:
    """Where each rendering of each term occurs in ``source``'s lines (its
    language's lines only, where a file holds two)."""
    reader = _TermReader.of(source, table)
    bilingual = _shares_file(SOURCES[source])
    out: dict[str, dict[str, list[int]]] = {}
    for i, line in enumerate(lines, start=1):
        if bilingual and _language(line) != SOURCES[source].language:
            continue
        for name, words in reader.named(line).items():
            for w in words:
                out.setdefault(name, {}).setdefault(w, []).append(i)
    return out


def term_text(source: str, lines: tuple[str, ...], table: Iterable[Term] | None = None,
              shared: Mapping[tuple[str, str], str] | None = None) -> tuple[list[TextFinding], tuple[str, str]]:
    """One Chinese text's renderings of the declared terms (``table``, the
    WoW table unless given, and its ``shared`` renderings): a term it renders
    two ways, unless declared synonyms, and a rendering two terms share,
    unless declared; and the declared renderings it never uses."""
    table = TERMS if table is None else tuple(table)
    shared = SHARED if shared is None else shared
    seen = _term_lines(source, lines, table)
    found: list[TextFinding] = []
    declared = [t for t in table if source in t.renderings]
    absent = [f"{r} ({t.name})" for t in declared for r in t.renderings[source] if r not in seen.get(t.name, {})]
    synonyms = 0
    for t in declared:
        used = seen.get(t.name, {})
        if len(used) < 2:
            continue
        if source in t.synonyms:
            synonyms += 1
            continue
        said = "; ".join(f"{w} {len(at)} times (first at line {at[0]})" for w, at in used.items())
        found.append(TextFinding(
            "term-clash", f"term-clash:{source}:{t.name.replace(' ', '-')}", (f"{source} term: {t.name}",),
            f"{source} renders the {t.kind} term {t.name} {len(used)} ways: {said}; nothing in the text says they are one thing ({TEXTUAL})",
            tuple(_place(source, at[:1]) for at in used.values()), (source,),
        ))
    shared_declared = 0
    sharing: dict[str, list[str]] = {}
    for t in declared:
        for r in t.renderings[source]:
            if r in seen.get(t.name, {}):
                sharing.setdefault(r, []).append(t.name)
    for r, names in sharing.items():
        if len(names) < 2:
            continue
        if (source, r) in shared:
            shared_declared += 1
            continue
        at = seen[names[0]][r]
        found.append(TextFinding(
            "term-clash", f"term-clash:{source}:{r}", tuple(f"{source} term: {n}" for n in names),
            f"{source} renders {' and '.join(names)} alike, as {r} ({len(at)} times, first at line {at[0]}): "
            f"where it stands, a reader cannot tell which is meant ({TEXTUAL})",
            (_place(source, at[:1]),), (source,),
        ))
    occurrences = sum(len(at) for used in seen.values() for at in used.values())
    clashes = len(found)
    verdict = (f"{occurrences} occurrences of {len(seen)} of its {len(declared)} declared terms; "
               + (f"{clashes} {'term or rendering clashes' if clashes == 1 else 'terms or renderings clash'}" if clashes else "each term rendered one way and each rendering one term's")
               + (f" ({synonyms} rendered two ways declared synonyms" if synonyms else "")
               + (f"{', ' if synonyms else ' ('}{shared_declared} shared renderings declared" if shared_declared else "")
               + (")" if synonyms or shared_declared else ""))
    if absent:
        verdict += f"; declared but not in the text: {', '.join(absent)}"
    return found, (f"term_clash[{source}]", verdict)


def term_across(seen: Mapping[str, dict[str, dict[str, list[int]]]]) -> tuple[list[TextFinding], tuple[str, str]]:
    """The same words for different terms in two texts (``seen``: each text's
    renderings in use, by term, as ``_term_lines`` reads them): a reader of
    both cannot tell which is meant.  A pair declared in ``SHARED`` under
    both texts' ids is counted, not reported."""
    found: list[TextFinding] = []
    shared = declared = 0
    for x, y in itertools.combinations(seen, 2):
        words_x = {r: {n for n, used in seen[x].items() if r in used} for used in seen[x].values() for r in used}
        words_y = {r: {n for n, used in seen[y].items() if r in used} for used in seen[y].values() for r in used}
        for r in sorted(words_x.keys() & words_y.keys()):
            shared += 1
            if words_x[r] & words_y[r]:
                continue
            if (f"{x}+{y}", r) in SHARED:
                declared += 1
                continue
            at_x = sorted({i for n in words_x[r] for i in seen[x][n][r]})
            at_y = sorted({i for n in words_y[r] for i in seen[y][n][r]})
            found.append(TextFinding(
                "term-clash", f"term-clash:{x}+{y}:{r}", tuple(f"{s} term: {n}" for s, names in ((x, words_x[r]), (y, words_y[r])) for n in sorted(names)),
                f"{r} is {x}'s word for {' and '.join(sorted(words_x[r]))} (on {len(at_x)} lines, the first {at_x[0]}) and "
                f"{y}'s for {' and '.join(sorted(words_y[r]))} (on {len(at_y)} lines, the first {at_y[0]}) ({TEXTUAL})",
                (_place(x, at_x[:1]), _place(y, at_y[:1])), (x, y),
            ))
    verdict = (f"{shared} renderings in use in two texts; " + (f"{len(found)} of them name different terms" if found else "each names the same term in both")
               + (f" ({declared} more declared)" if declared else ""))
    return found, ("term_clash[across texts]", verdict)


def term_pairs(english: RuleText, chinese: RuleText, pairs: Iterable[tuple[Rule, Rule]]) -> tuple[list[TextFinding], tuple[str, str]]:
    """Rule by rule, each term the English names against the Chinese: a
    finding where the Chinese renders none of the term's renderings, but
    another term of its kind more often than the English names that one."""
    en, zh = _TermReader.of(None), _TermReader.of(chinese.source)
    found: list[TextFinding] = []
    compared = agree = 0
    declared = {k: v for k, v in READINGS.items() if k[:2] == (english.source, chinese.source)}
    read: list[tuple[str, str, str, str]] = []
    for a, b in pairs:
        if not a.lines or not b.lines:
            continue
        said, rendered = en.named(a.text), zh.named(b.text)
        for name, words in said.items():
            t = _BY_NAME[name]
            compared += len(words)
            if name in rendered:
                agree += len(words)
                continue
            instead = [o for o, w in rendered.items() if o != name and _BY_NAME[o].kind == t.kind and len(w) > len(said.get(o, ()))]
            if not instead:
                continue
            if (english.source, chinese.source, b.number, name) in declared:
                read.append((english.source, chinese.source, b.number, name))
                continue
            shown = "; ".join(f"{o} ({_rendered_as(rendered[o])}) {len(rendered[o])} times, which the English names {len(said.get(o, ())) or 'no'} times" for o in instead)
            rule = f"{a.number} in {english.source} and {'' if a.number == b.number else b.number + ' '}in {chinese.source}"
            rules = (SOURCES[english.source].cites_as(a.number),) + ((SOURCES[chinese.source].cites_as(b.number),) if b.number != a.number or english.source != "002en" else ())
            found.append(TextFinding(
                "term-clash", f"term-clash:{english.source}+{chinese.source}:{b.number}:{name.replace(' ', '-')}", rules,
                f"{rule}: the English names {name} ({_rendered_as(words)}); the Chinese renders it by none of "
                f"{_rendered_as(t.renderings.get(chinese.source, ())) or 'the renderings of other texts (it has none)'} but names {shown} ({TEXTUAL})",
                (_place(english.source, a.lines), _place(chinese.source, b.lines)), (english.source, chinese.source),
            ))
    verdict = (f"{compared} occurrences of declared terms in the English compared rule by rule; the Chinese renders {agree} of them"
               + (f"; {len(found)} rendered as another term of their kind" if found else "; none rendered as another term of its kind")
               + (f" ({len(read)} more declared read and found to say the same)" if read else ""))
    if stale := sorted(set(declared) - set(read)):
        verdict += "; declared but not found: " + ", ".join(f"{n} {t}" for _, _, n, t in stale)
    return found, (f"term_clash[{english.source} {chinese.source}]", verdict)


def _synonymous(term: Term, first: str, mine: list[str], second: str, theirs: list[str]) -> bool:
    """Are two texts' words for ``term`` declared one thing: for the pair of
    texts, or as synonyms in a text whose renderings hold both sides' words?"""
    if f"{first}+{second}" in term.synonyms:
        return True
    words = set(mine) | set(theirs)
    return any(x in term.synonyms and words <= set(term.renderings[x]) for x in (first, second))


def term_versions(first: RuleText, second: RuleText, english: RuleText) -> tuple[list[TextFinding], tuple[str, str]]:
    """Two Chinese texts of the same rules (``000`` and ``002zh``): a term the
    English rule names that both render, each by words the other does not use
    there; one finding per term, with each rule where they part."""
    en, mine, theirs = _TermReader.of(None), _TermReader.of(first.source), _TermReader.of(second.source)
    parted: dict[str, list[tuple[str, str, str]]] = {}
    compared = alike = 0
    for n, rule in english.rules.items():
        if n not in first.rules or n not in second.rules or not rule.lines:
            continue
        a, b = mine.named(first.rules[n].text), theirs.named(second.rules[n].text)
        for name in en.named(rule.text):
            if name not in a or name not in b:
                continue
            compared += 1
            if _synonymous(_BY_NAME[name], first.source, a[name], second.source, b[name]):
                alike += not set(a[name]) & set(b[name])
                continue
            if not set(a[name]) & set(b[name]):
                parted.setdefault(name, []).append((n, _rendered_as(a[name]), _rendered_as(b[name])))
    found: list[TextFinding] = []
    for name, rules in parted.items():
        shown = "; ".join(f"{n}: {x} against {y}" for n, x, y in rules)
        lines_a = [i for n, _, _ in rules for i in first.rules[n].lines]
        lines_b = [i for n, _, _ in rules for i in second.rules[n].lines]
        found.append(TextFinding(
            "term-clash", f"term-clash:{first.source}+{second.source}:{name.replace(' ', '-')}", tuple(n for n, _, _ in rules),
            f"{first.source} and {second.source} render {name} differently in the same rules ({shown}) ({TEXTUAL})",
            (_place(first.source, lines_a), _place(second.source, lines_b)), (first.source, second.source),
        ))
    verdict = (f"{compared} terms that a rule's English names and both Chinese texts render there; "
               + (f"{sum(len(r) for r in parted.values())} of them rendered apart, for {len(found)} {'term' if len(found) == 1 else 'terms'}" if found else "each rendered alike")
               + (f" ({alike} more by words declared synonyms)" if alike else ""))
    return found, (f"term_clash[{first.source} {second.source}]", verdict)


#: The heading a text's own term list stands under (004's 中英文对应), an
#: entry of it (an indented Chinese term, two joined by a slash, then its
#: English) and a group's title at the margin ("区域 Zones").
_LIST_HEAD = re.compile(r"^#+\s*中英文对应\s*$")
_LIST_ENTRY = re.compile(r"^\s{2,}([\u4e00-\u9fff/]+)\s+([A-Za-z][A-Za-z /'-]*?)\s*$")
_LIST_GROUP = re.compile(r"^([\u4e00-\u9fff、]+)\s+([A-Za-z].*?)\s*$")


@dataclass(frozen=True)
class ListedTerm:
    """An entry of a text's own term list: its line, its group's English title, its words."""

    line: int
    group: str
    chinese: str
    english: str


def term_list(lines: tuple[str, ...], rules_from: int) -> list[ListedTerm]:
    """The entries of the term list a text opens with: the lines under its
    中英文对应 heading, before its first rule's line."""
    out: list[ListedTerm] = []
    group, inside = "", False
    for i, line in enumerate(lines[:rules_from - 1], start=1):
        if _LIST_HEAD.match(line):
            inside = True
        elif inside and (m := _LIST_ENTRY.match(line)):
            out.append(ListedTerm(i, group, m.group(1), m.group(2)))
        elif inside and (m := _LIST_GROUP.match(line)):
            group = m.group(2)
    return out


def term_listed(source: str, rules: tuple[str, ...], listed: list[ListedTerm], split: Callable[[str, str], tuple[tuple[str, str], ...]],
                table: tuple[Term, ...], shared: Mapping[tuple[str, str], str], heavy: int) -> tuple[list[TextFinding], tuple[str, str]]:
    """A text's rules (``rules``: its lines, those before the rules blank)
    held to the term list it opens with (``listed``, each entry cut into its
    terms by ``split``): one Chinese the list gives two terms, unless
    ``shared`` says why the rules tell them apart; a listed term the rules
    never write as listed but in other words its ``table`` entry declares,
    unless declared synonyms; and the table's terms the list lacks that the
    rules write ``heavy`` times or more.  A listed term the rules write both
    as listed and otherwise is ``term_text``'s to report."""
    seen = _term_lines(source, rules, table)
    by_name = {t.name: t for t in table}
    found: list[TextFinding] = []
    rows = [(e.line, name, word) for e in listed for name, word in split(e.chinese, e.english)]
    first: dict[str, int] = {}
    words: dict[str, list[str]] = {}
    names: dict[str, list[str]] = {}
    for line, name, word in rows:
        first.setdefault(name, line)
        if word not in words.setdefault(name, []):
            words[name].append(word)
        if name not in names.setdefault(word, []):
            names[word].append(name)
    repeated = len(rows) - sum(len(w) for w in words.values())
    alike = [w for w, n in names.items() if len(n) > 1]
    for w in alike:
        if (source, w) in shared:
            continue
        at = [line for line, _, word in rows if word == w]
        found.append(TextFinding(
            "term-clash", f"term-clash:{source}:list:{w}", tuple(f"{source} term: {n}" for n in names[w]),
            f"{source}'s term list gives {w} to {' and '.join(names[w])} (lines {', '.join(map(str, at))}) ({TEXTUAL})",
            (_place(source, at[:1]),), (source,)))
    as_listed, synonyms, unused, otherwise = 0, 0, [], []
    for name, listed_words in words.items():
        used = seen.get(name, {})
        if any(w in used for w in listed_words):
            as_listed += 1
        elif not used:
            unused.append(f"{'/'.join(listed_words)} ({name})")
        elif source in by_name[name].synonyms:
            synonyms += 1
        else:
            otherwise.append(name)
            said = "; ".join(f"{w} {len(at)} times (first at line {at[0]})" for w, at in used.items())
            found.append(TextFinding(
                "term-clash", f"term-clash:{source}:{name.replace(' ', '-')}", (f"{source} term: {name}",),
                f"{source}'s term list gives {'/'.join(listed_words)} for {name} (line {first[name]}); its rules never write it, "
                f"and write {said} where the term is meant ({TEXTUAL})",
                (_place(source, (first[name],)),) + tuple(_place(source, at[:1]) for at in used.values()), (source,)))
    unlisted = {t.name: seen.get(t.name, {}) for t in table if t.name not in words and source in t.renderings}
    heavy_used = {n: used for n, used in unlisted.items() if sum(map(len, used.values())) >= heavy}
    if heavy_used:
        said = "; ".join(f"{n} ({_rendered_as(used)}, {sum(map(len, used.values()))} times, first at line {min(at[0] for at in used.values())})"
                         for n, used in heavy_used.items())
        found.append(TextFinding(
            "term-clash", f"term-clash:{source}:unlisted", tuple(f"{source} term: {n}" for n in heavy_used),
            f"{source}'s term list lacks {len(heavy_used)} terms its rules write {heavy} times or more: {said} ({TEXTUAL})",
            tuple(_place(source, (min(at[0] for at in used.values()),)) for used in heavy_used.values()), (source,)))
    verdict = (f"{len(listed)} entries of its term list" + (f" ({len(rows) - len(listed)} cut in two)" if len(rows) > len(listed) else "")
               + f" name {len(words)} terms" + (f" ({repeated} repeated)" if repeated else "") + f"; its rules write {as_listed} of them as listed, "
               f"{len(otherwise) + synonyms} only in other words" + (f" ({synonyms} declared synonyms)" if synonyms else "")
               + f", {len(unused)} never" + (f" ({', '.join(unused)})" if unused else "")
               + f"; {len(alike)} Chinese given two terms" + (f" ({sum(1 for w in alike if (source, w) in shared)} declared)" if alike else "")
               + f"; {sum(1 for u in unlisted.values() if u)} of {len(unlisted)} declared terms the list lacks in use, {len(heavy_used)} of them {heavy} times or more")
    return found, (f"term_clash[{source} list]", verdict)


#: One text in two languages, compared rule by rule.
TRANSLATIONS = (("002en", "002zh"),)


def lint_texts(game: str) -> tuple[list[TextFinding], list[tuple[str, str]]]:
    """Every text check of ``game``'s texts, and a (query, verdict) for each."""
    loaded = {x: load(x) for x in GAME_SOURCES.get(game, ())}
    absent = [SOURCES[x].file for x, t in loaded.items() if t is None]
    if absent:
        return [], [("text_checks", f"skipped: {', '.join(dict.fromkeys(absent))} not at hand (CHAINPROOF_TEXTS names the folder of seeds/ and reference/)")]
    texts = {x: t for x, t in loaded.items() if t is not None}
    found, checks = dangling(texts)
    for text in texts.values():
        more, check = misdirected(text)
        found += more
        checks += [check] if check else []
    for a, b in TRANSLATIONS:
        if a in texts and b in texts:
            more, check = translation(texts[a], texts[b])
            found += more
            checks.append(check)
    for concordance in CONCORDANCES:
        for a in concordance.older:
            if a in texts and concordance.later in texts:
                more, version_checks = version(texts[a], texts[concordance.later], concordance)
                found += more
                checks += version_checks
    for source, text in texts.items():
        more, check = self_count(source, passages(text))
        found += more
        checks.append(check)
    for basics in BASIC_CONCORDANCES:
        if basics.basic in texts and (lines := lines_of(basics.basic)) is not None:
            more, basic_checks = basic(read_sections(basics.basic, lines), texts, basics)
            found += more
            checks += basic_checks
    for source, text in texts.items():
        if text.rules and glossary(text.lines):
            pairs, astray, entries = numbered_glossary(text)
            more, check = glossary_clash(source, pairs, astray, entries, [])
        elif source in GLOSSARY_CONCORDANCES and (lines := lines_of(source)) is not None:
            heading, declared = GLOSSARY_CONCORDANCES[source]
            pairs, lost, entries = section_glossary(read_sections(source, lines), heading, declared)
            more, check = glossary_clash(source, pairs, [], entries, lost)
        else:
            continue
        found += more
        checks.append(check)
    more, term_checks = terms(texts)
    return found + more, checks + term_checks


def terms(texts: Mapping[str, RuleText]) -> tuple[list[TextFinding], list[tuple[str, str]]]:
    """The term-clash checks of the texts at hand: each Chinese text the term
    table covers by itself, each English text against its Chinese rule by
    rule, and the two Chinese texts of the combat rules against each other."""
    found: list[TextFinding] = []
    checks: list[tuple[str, str]] = []
    seen: dict[str, dict[str, dict[str, list[int]]]] = {}
    for source in TERM_TEXTS:
        if source in texts and (lines := lines_of(source)) is not None:
            more, check = term_text(source, lines)
            found += more
            checks.append(check)
            seen[source] = _term_lines(source, lines)
    if len(seen) > 1:
        more, check = term_across(seen)
        found += more
        checks.append(check)
    rule_pairs = [(texts[a], texts[b], [(x, texts[b].rules[n]) for n, x in texts[a].rules.items() if n in texts[b].rules])
                  for a, b in TRANSLATIONS if a in texts and b in texts]
    rule_pairs += [(texts[c.later], texts[a], [(y, x) for x, y in aligned(texts[a], texts[c.later], c)])
                   for c in CONCORDANCES for a in c.older if a in TERM_TEXTS and a in texts and c.later in texts]
    for english, chinese, pairs in rule_pairs:
        more, check = term_pairs(english, chinese, pairs)
        found += more
        checks.append(check)
    if all(x in texts for x in ("000", "002zh", "002en")):
        more, check = term_versions(texts["000"], texts["002zh"], texts["002en"])
        found += more
        checks.append(check)
    for game in (riftbound_terms,):
        if game.TEXT in texts and (lines := lines_of(game.TEXT)) is not None:
            more, check = term_text(game.TEXT, lines, game.TERMS, game.SHARED)
            found += more
            checks.append(check)
    if hota_terms.TEXT in texts and (lines := lines_of(hota_terms.TEXT)) is not None:
        more, hota_checks = term_own_list(hota_terms.TEXT, lines)
        found += more
        checks += hota_checks
    return found, checks


def term_own_list(source: str, lines: tuple[str, ...]) -> tuple[list[TextFinding], list[tuple[str, str]]]:
    """The term-clash checks of a text that opens with its own term list
    (004): its rules read by the list and ``model/hota/terms.py``'s
    declarations, within the text and against the list."""
    rules_from = SOURCES[source].rules_from
    listed = term_list(lines, rules_from)
    table = hota_terms.table((e.group, name, word) for e in listed for name, word in hota_terms.split(e.chinese, e.english))
    rules = tuple(line if i >= rules_from else "" for i, line in enumerate(lines, start=1))
    found, list_check = term_listed(source, rules, listed, hota_terms.split, table, hota_terms.SHARED, hota_terms.HEAVY)
    more, check = term_text(source, rules, table, hota_terms.SHARED)
    # A listed term the rules write only in other words is reported against the list, which names the word they never use.
    keys = {f.key for f in found}
    return found + [f for f in more if f.key not in keys], [check, list_check]
