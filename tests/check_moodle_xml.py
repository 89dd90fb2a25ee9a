#!/usr/bin/env python3
"""Checks headcount's Moodle question bank the way Moodle's XML import and Cloze (multianswer) parser read it.

Usage: check_moodle_xml.py HEADCOUNT_BINARY SOURCE_DIR.

Moodle itself is not available here, so its rules are rewritten below from its source: the bank is read as its XML
import reads it (lib/xmlize.php, which drops white-space-only pieces of text) and compared with a conforming parser
(xml.etree); every question text goes through its Cloze extractor (question/type/multianswer/questiontype.php,
qtype_multianswer_extract_question): the subquestions it finds, their weights, answers, tolerances and feedback,
and the text left around them; and a typed number gets the answer its numerical question gives
(question/type/numerical/question.php: closed intervals, first match). Expected values come from formulas written
here (week 3's block: 3d^2 + 3d and 4d^2 + 4d with biases), from key.csv (generate's markdown format, checked
elsewhere against solve), from the rounding rule of docs/students.md and from `check` (grade itself, which Moodle must agree
with), never from the bank under test.
"""
import csv
from decimal import Decimal
from fractions import Fraction
import html
import html.entities
import json
import math
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import xml.parsers.expat

# Moodle's Cloze grammar, written from qtype_multianswer_extract_question and the regexes above it in
# question/type/multianswer/questiontype.php. PHP's (?<!\\|&|&amp;) is written as three lookbehinds, as Python's
# must each have one width; the group numbers are PHP's.
FRACTION = r"=|%(-?[0-9]+(?:[.,][0-9]*)?)%"
ANSWER = r".+?(?<!\\)(?<!&)(?<!&amp;)(?=[~#}]|$)"
FEEDBACK = r".*?(?<!\\)(?=[~}]|$)"
ALTERNATIVE = f"({FRACTION})?({ANSWER})(#({FEEDBACK}))?"
NUMBER = r"-?(([0-9]+[.,]?[0-9]*|[.,][0-9]+)([eE][-+]?[0-9]+)?)"
NUMERICAL_ALTERNATIVE = f"^({NUMBER})(:{NUMBER})?$"
TYPE_GROUPS = ["NUMERICAL|NM", "MULTICHOICE|MC", "MULTICHOICE_V|MCV", "MULTICHOICE_H|MCH", "SHORTANSWER|SA|MW",
               "SHORTANSWER_C|SAC|MWC", "MULTICHOICE_S|MCS", "MULTICHOICE_VS|MCVS", "MULTICHOICE_HS|MCHS",
               "MULTIRESPONSE|MR", "MULTIRESPONSE_H|MRH", "MULTIRESPONSE_S|MRS", "MULTIRESPONSE_HS|MRHS"]
KINDS = ["numerical", "multichoice", "multichoice", "multichoice", "shortanswer", "shortanswer", "multichoice",
         "multichoice", "multichoice", "multiresponse", "multiresponse", "multiresponse", "multiresponse"]
SUBQUESTION = re.compile(r"\{([0-9]*):(" + "|".join(f"({t})" for t in TYPE_GROUPS) + "):" +
                         f"({ALTERNATIVE}(~{ALTERNATIVE})*)" + r"\}", re.S)
NEXT_ALTERNATIVE = re.compile("~?" + ALTERNATIVE, re.S)


def fail(message):
    print(f"FAILED: {message}")
    sys.exit(1)


def html_entity_decode(text):
    """PHP's html_entity_decode(..., ENT_QUOTES, 'UTF-8'): HTML 4's named references and numeric ones, each ending
    in ';' (Python's html.unescape also takes HTML5's names and references without ';')."""
    def one(m):
        ref = m.group(1)
        if ref[0] == "#":
            code = int(ref[2:], 16) if ref[1] in "xX" else int(ref[1:])
            return chr(code) if 0 < code < 0x110000 else m.group(0)
        return chr(html.entities.name2codepoint[ref]) if ref in html.entities.name2codepoint else m.group(0)
    return re.sub(r"&(#[0-9]+|#[xX][0-9a-fA-F]+|[A-Za-z][A-Za-z0-9]*);", one, text)


def parse_cloze(text):
    """What Moodle's qtype_multianswer_extract_question makes of a question text: its subquestions left to right,
    each {weight, kind, answers: [{percent, answer, tolerance, feedback}]} (tolerance None unless numerical), and
    the text with each replaced by {#n}, which Moodle's renderer later splits at."""
    subquestions = []
    while m := SUBQUESTION.search(text):
        kind = KINDS[next(i for i in range(len(TYPE_GROUPS)) if m.group(3 + i))]
        answers, rest = [], m.group(16)
        while a := NEXT_ALTERNATIVE.search(rest):
            percent = 100.0 if a.group(1) == "=" else float(a.group(2).replace(",", ".")) if a.group(2) else 0.0
            feedback = html_entity_decode(a.group(5) or "").replace("\\}", "}").replace("\\#", "#")
            number = re.match(NUMERICAL_ALTERNATIVE, a.group(3), re.S) if kind == "numerical" else None
            if number:
                answer, tolerance = number.group(1), number.group(6) or "0"
            else:
                answer, tolerance = html_entity_decode(a.group(3)).replace("\\}", "}").replace("\\#", "#"), None
            # The save step (qtype_numerical/shortanswer save_question_options) skips a blank answer with no grade
            # and no feedback, such as a last feedback's closing line break read as one more answer.
            if answer.strip() or percent or feedback.strip():
                answers.append({"percent": percent, "answer": answer, "tolerance": tolerance, "feedback": feedback})
            rest = rest.split(a.group(0), 1)[1]
        subquestions.append({"weight": int(m.group(1) or 1), "kind": kind, "answers": answers})
        text = text.replace(m.group(0), "{#%d}" % len(subquestions), 1)
    return subquestions, text


def php_number(text):
    """A number Moodle stored from a Cloze answer: qtype_numerical's apply_units adds 0 to the digits, giving an
    integer for whole digits, else a float, which the database keeps as PHP writes it: 14 significant figures
    (lib/setup.php sets precision to 14)."""
    if re.fullmatch(r"-?[0-9]+", text):
        return int(text)
    return float("%.14G" % float(text.replace(",", ".")))


def moodle_interval(answer):
    """qtype_numerical_answer::get_tolerance_interval (nominal, the only kind Cloze makes): the answer plus and minus
    tolerance + 1e-14 * max(tolerance, |answer|, 1e-14), pow(10, -precision) being 1e-14; within_tolerance takes
    both ends."""
    value, tolerance = php_number(answer["answer"]), abs(php_number(answer["tolerance"]))
    epsilon = 1e-14
    tolerance = tolerance + epsilon * max(abs(tolerance), abs(value), epsilon)
    return value - tolerance, value + tolerance


def moodle_match(answers, typed):
    """The answer Moodle gives a typed number: qtype_numerical_question::get_matching_answer tries the answers in
    order and takes the first whose interval holds it ('*' holds everything)."""
    value = php_number(typed)
    for answer in answers:
        if answer["answer"] == "*":
            return answer
        low, high = moodle_interval(answer)
        if low <= value <= high:
            return answer
    return None


def moodle_text_match(answers, typed):
    """The answer Moodle's SHORTANSWER gives a typed text (question/type/shortanswer/question.php,
    compare_string_with_wildcard): the first whose pattern, '*' matching anything and the rest literal, matches the
    trimmed response whole, ignoring case (SHORTANSWER, not SHORTANSWER_C)."""
    for answer in answers:
        pattern = "^" + ".*".join(re.escape(bit) for bit in re.split(r"(?<!\\)\*+", answer["answer"])) + "$"
        if re.match(pattern, typed.strip(PHP_SPACE), re.I | re.S):
            return answer
    return None


def box_match(sub, typed):
    """The answer a subquestion gives a typed answer, numerical or text."""
    return moodle_match(sub["answers"], typed) if sub["kind"] == "numerical" else moodle_text_match(sub["answers"], typed)


def rule1_reach(exact, figures):
    """Rule 1 of issue 39, derived here from its words: right when |answer - exact| <= half a unit in the last required
    figure. `exact` is a Fraction; figures None asks for every digit: half a unit in the last digit of a whole number
    or of a decimal that ends, nothing for one that does not end (7/39)."""
    if figures is None:
        den = exact.denominator
        for p in (2, 5):
            while den % p == 0:
                den //= p
        if den != 1:
            return Fraction(0)
        places = 0
        while (exact * 10 ** places).denominator != 1:
            places += 1
        return Fraction(1, 2 * 10 ** places)
    first = 0  # the place of the first figure: 10^first <= |exact| < 10^(first + 1)
    while Fraction(10) ** first > abs(exact):
        first -= 1
    while Fraction(10) ** (first + 1) <= abs(exact):
        first += 1
    return Fraction(10) ** (first - figures + 1) / 2


def decimal_text(x, up):
    """x as a decimal a student could type, to 12 places, rounded up or down (a whole x as its digits)."""
    if x.denominator == 1:
        return str(x.numerator)
    scaled = x * 10 ** 12
    n = math.ceil(scaled) if up else math.floor(scaled)
    sign, n = ("-" if n < 0 else ""), abs(n)
    return f"{sign}{n // 10 ** 12}.{n % 10 ** 12:012d}".rstrip("0").rstrip(".")


def check_rule1_edges(binary, source, spec, part, sub, exact, figures, inside, outside):
    """A right band at rule 1's edges, against check. Moodle must take both edges, exact -+ reach (typed to 12 decimal
    places towards the inside when they do not end there), the whole numbers just inside them, and nothing past
    them: not the whole numbers just outside, nor a millionth of the reach outside (Moodle's own allowance, 1e-14 of
    the value, is all it may add). A text box (past 2^53) is asked only whole numbers: it lists digits. check must
    agree with Moodle and rule 1 at every edge, and at `inside` and `outside` (points well inside and well outside
    the band)."""
    reach = rule1_reach(exact, figures)
    lo, hi = exact - reach, exact + reach
    whole_in = [Fraction(math.ceil(lo)), Fraction(math.floor(hi))]
    whole_out = [Fraction(math.ceil(lo) - 1), Fraction(math.floor(hi) + 1)]
    edges = [(decimal_text(lo, up=True), True), (decimal_text(hi, up=False), True)]
    edges += [(decimal_text(w, False), lo <= w <= hi) for w in whole_in] + \
             [(decimal_text(w, False), False) for w in whole_out]
    if reach:
        edges += [(decimal_text(lo - reach / 10 ** 6, up=False), False),
                  (decimal_text(hi + reach / 10 ** 6, up=True), False)]

    def moodle_right(text):
        answer = box_match(sub, text)
        return answer is not None and answer["percent"] == 100

    if sub["kind"] != "numerical":
        # Matched as text: each right answer is a way of typing a number in rule 1's interval, and no number outside
        # it is right. A number inside it that is no rounding of the value (3.152e23 for 3.15e23 at three figures)
        # is not listed, and gets the catch-all: a text box can list numbers, not hold an interval.
        for a in sub["answers"]:
            if a["percent"] == 100 and not lo <= Fraction(Decimal(a["answer"].replace(",", ""))) <= hi:
                fail(f"{spec} ({part}): {a['answer']} is right in Moodle, outside rule 1's band")
        edges = [(text, right) for text, right in edges if "." not in text and (not right or moodle_right(text))]
    for text, right in edges:
        if moodle_right(text) != right:
            fail(f"{spec} ({part}) {text}: right in Moodle {moodle_right(text)}; rule 1 says {right} "
                 f"(its band is {float(lo)!r} to {float(hi)!r})")
        if figures is None and exact.denominator == 1 and "." in text:
            continue  # every digit of a count: check takes the count alone, not 787,967.5 (Moodle's +- 0.5 holds it)
        in_check = grade_verdict(binary, source, spec, part, text)[0] == 100
        if in_check != right:
            fail(f"{os.path.basename(spec)} ({part}) {text}: rule 1 says {'right' if right else 'not right'}, "
                 f"check {'right' if in_check else 'not right'}")
    for points, right in ((inside, True), (outside, False)):
        for text in points:
            value = Fraction(Decimal(text.replace(",", "")))
            if (lo <= value <= hi) != right:
                fail(f"test error: {text} is not {'inside' if right else 'outside'} rule 1's band")
            in_moodle, in_check = moodle_right(text), grade_verdict(binary, source, spec, part, text)[0] == 100
            if (in_moodle, in_check) != (right, right):
                fail(f"{spec} ({part}) {text}: right in Moodle {in_moodle}, in check {in_check}; expected {right}")


def sig_roundings(value):
    """Every k-figure rounding of value that docs/students.md calls a rounding (2 <= k < digits), as integers."""
    digits = len(str(value))
    out = {}
    for k in range(2, digits):
        place = 10 ** (digits - k)
        low = value // place * place
        for candidate in (low, low + place):
            if candidate != value and 2 * abs(candidate - value) <= place:
                out.setdefault(candidate, k)
    return out


# PHP's trim() characters: what Moodle's whitespace tests strip (Python's str.strip would also strip U+00A0).
PHP_SPACE = " \t\n\r\0\x0b"


def moodle_read(data):
    """The document as Moodle's XML import reads it: lib/xmlize.php (core_xml_parser) keeps a piece of character
    data only if trim($data) is not empty (or it is "0"), and joins the pieces it keeps. PHP's XML parser (libxml2)
    hands over a CDATA section whole, each character or entity reference on its own, and each run of other text
    between them whole; expat splits runs at line ends as well, so the pieces are joined back into those runs here.
    A CDATA section that spans one of Moodle's 4096-byte reads comes in blocks of 300 bytes, so a section must not
    hold 300 white-space characters in a row. Returns an ElementTree root whose texts are what Moodle keeps."""
    parser = xml.parsers.expat.ParserCreate("UTF-8")
    parser.buffer_text = False
    stack, state = [], {"root": None, "piece": None, "kind": None, "cdata": False}

    def flush():
        piece = state["piece"]
        if piece is not None and stack and (piece == "0" or piece.strip(PHP_SPACE)):
            stack[-1].text = (stack[-1].text or "") + piece
        state["piece"], state["kind"] = None, None

    def characters(text):
        kind = "cdata" if state["cdata"] else "reference" if data[parser.CurrentByteIndex:][:1] == b"&" else "text"
        if kind == "reference" or kind != state["kind"]:
            flush()
        state["piece"], state["kind"] = (state["piece"] or "") + text, kind

    def start(tag, attributes):
        flush()
        element = ET.Element(tag, attributes)
        if stack:
            stack[-1].append(element)
        else:
            state["root"] = element
        stack.append(element)

    def end(tag):
        flush()
        stack.pop()

    def start_cdata():
        flush()
        state["cdata"] = True

    def end_cdata():
        if re.search(f"[{PHP_SPACE}]{{300}}", state["piece"] or ""):
            fail("a CDATA section holds 300 white-space characters in a row, which Moodle may drop as one block")
        flush()
        state["cdata"] = False

    parser.StartElementHandler, parser.EndElementHandler = start, end
    parser.CharacterDataHandler = characters
    parser.StartCdataSectionHandler, parser.EndCdataSectionHandler = start_cdata, end_cdata
    parser.Parse(data, True)
    return state["root"]


def check_whitespace_kept(data, root):
    """Every <text> reads in Moodle as it does in a conforming XML parser, up to the trim() Moodle applies."""
    losses = []  # (lost character, context)
    for read, whole in zip(moodle_read(data).iter("text"), root.iter("text")):
        kept, written = (read.text or "").strip(PHP_SPACE), (whole.text or "").strip(PHP_SPACE)
        # Moodle only leaves pieces out: walk both, noting where the written text has a character Moodle lacks.
        i = 0
        for at, c in enumerate(written):
            if i < len(kept) and kept[i] == c:
                i += 1
            else:
                losses.append((c, written[max(0, at - 40):at + 20]))
    if losses:
        c, context = next((loss for loss in losses if loss[0] == " "), losses[0])  # a lost space shows best
        fail(f"Moodle's XML reader drops {len(losses)} white-space characters, e.g. the {c!r} in {context!r}")


def run(binary, source, *args, allowed=(0,)):
    result = subprocess.run([binary, *args], cwd=source, capture_output=True, text=True)
    if result.returncode not in allowed:
        fail(f"headcount {' '.join(args)} exited {result.returncode}: {result.stderr}")
    return result


def load(path):
    """The file's bytes and its tree as Moodle reads it (checked to lose no white space)."""
    with open(path, "rb") as f:
        data = f.read()
    check_whitespace_kept(data, ET.fromstring(data))
    return data, moodle_read(data)


def check_bank(root, names=()):
    """Structure shared by every bank; returns {category: [(question element, subquestions, text)]}, the text being
    the question text with each subquestion replaced by {#n}, HTML references decoded (what a reader sees)."""
    if root.tag != "quiz":
        fail(f"root element is <{root.tag}>, not <quiz>")
    categories, current = {}, None
    for question in root:
        if question.tag != "question":
            fail(f"unexpected <{question.tag}> under <quiz>")
        kind = question.get("type")
        if kind == "category":
            current = question.findtext("category/text")
            if not current or not current.startswith("$course$/top/headcount/"):
                fail(f"category text {current!r}")
            if current in categories:
                fail(f"category {current} twice")
            categories[current] = []
            continue
        if kind != "cloze":
            fail(f"question type {kind!r}: every question should be one Cloze question per variant")
        if current is None:
            fail("a question before any category")
        for path in ("name/text", "questiontext/text", "generalfeedback/text"):
            if not (question.findtext(path) or "").strip():
                fail(f"missing {path}")
        if question.find("questiontext").get("format") != "html":
            fail("question text is not HTML")
        name = question.findtext("name/text")
        text = question.findtext("questiontext/text")
        if re.search(r"(?<![\\$])\$[^$\s][^$]*\$", text):
            fail(f"{name}: $...$ math left in the question text")
        for student in names:
            if re.search(r"\b" + re.escape(student) + r"\b", text + name):
                fail(f"student name or id {student!r} in a question")
        subquestions, rest = parse_cloze(text)
        # Moodle's renderer puts subquestion n wherever {#n} stands: each once, in order, and nothing else.
        if re.findall(r"\{#(\d+)\}", rest) != [str(i + 1) for i in range(len(subquestions))]:
            fail(f"{name}: placeholders {re.findall(r'{#[0-9]+}', rest)} for {len(subquestions)} subquestions")
        for sub in subquestions:
            answers = sub["answers"]
            if not [a for a in answers if a["percent"] == 100]:
                fail(f"{name}: a subquestion without a 100% answer")
            if any(not 0 <= a["percent"] <= 100 for a in answers):
                fail("a grade outside 0..100%")
            if sub["kind"] == "numerical":
                # qtype_multianswer_validate_question: a numerical answer is a number or '*'.
                for a in answers:
                    if a["answer"] != "*" and a["tolerance"] is None:
                        fail(f"{name}: numerical answer {a['answer']!r} is not value[:tolerance]")
            if sub["kind"] != "multichoice" and answers[-1]["answer"] != "*":
                fail("the catch-all '*' answer is not last")
            check_explained_once(name, sub)
        categories[current].append((question, subquestions, html_entity_decode(rest)))
    return categories


def check_injection(root, title, part_text):
    """Cloze syntax in an instructor's title and part text is text: the question has one subquestion per part,
    weighted by its points (2 and 3), and the reader sees the title and the text as written."""
    (question, subquestions, rest), = check_bank(root)["$course$/top/headcount/inject"]
    found = [(s["weight"], s["kind"]) for s in subquestions]
    if found != [(2, "numerical"), (3, "numerical")]:
        fail(f"Cloze syntax in a spec became subquestions: Moodle finds {found}, the spec has parts of 2 and 3 "
             "points")
    for written in (title, part_text):
        if written not in rest:
            fail(f"the question does not show {written!r} as written")


def grade_verdict(binary, source, spec, part, typed):
    """What `check` says of one typed answer: (percent of the part's points, titles of the mistakes it names, and
    those mistakes as check's JSON gives them: id, title, feedback)."""
    out = run(binary, source, "check", spec, "--part", part, "--answer", typed, "--format", "json", allowed=(0, 1))
    verdict = json.loads(out.stdout)
    return 100 * verdict["score"] / verdict["points"], {m["title"] for m in verdict["mistakes"]}, verdict["mistakes"]


def feedback_notes(feedback):
    """An answer's feedback as the notes it holds, [(title, explanation)], the explanation "" when the note is its
    title alone: each note is a paragraph opening with its bold title (the explanation may run on over paragraphs)."""
    notes = []
    for note in re.split(r"(?=<p><strong>)", feedback):
        m = re.match(r"<p><strong>(.*?)</strong>(.*)$", note, re.S)
        if m:
            rest = re.sub(r"<[^>]*>", "", m.group(2))
            notes.append((m.group(1), " ".join(html_entity_decode(rest).split())))
    return notes


def check_explained_once(where, sub):
    """Each mistake a box names is explained once (docs/platforms.md): by the answers that name it alone, or, when
    none does, by one answer among those that name it with others; every other answer names it by its title alone.
    Answers that differ only in how the value is typed (a shape's forms, an interval cut in two) say the same, so
    they count as one. Before, every answer explained every mistake it named, and a pair repeated two explanations
    that the box already held."""
    alone, explaining = {}, {}
    for a in sub["answers"]:
        notes = feedback_notes(a["feedback"])
        for title, explanation in notes:
            if len(notes) == 1:
                alone.setdefault(title, set()).add(a["feedback"])
                if not explanation:
                    fail(f"{where}: the answer naming only {title!r} does not explain it")
            elif explanation:
                explaining.setdefault(title, set()).add(a["feedback"])
    for title in {t for a in sub["answers"] for t, _ in feedback_notes(a["feedback"])}:
        together = explaining.get(title, set())
        if (title in alone and together) or (title not in alone and len(together) != 1):
            fail(f"{where}: {title!r} is explained by {len(alone.get(title, ()))} answers naming it alone and "
                 f"{len(together)} naming it with others; it should be explained once")


def check_feedback_words(where, feedback, mistakes):
    """An answer's feedback as a Moodle reader sees it, against the mistakes `check` names for the same number: the
    same titles in the same order, and each explanation there is check's words (its $...$ math written \\(...\\),
    code spans without their backticks); an answer naming one mistake explains it."""
    notes = feedback_notes(feedback)
    titles = [html_entity_decode(re.sub(r"<[^>]*>", "", t)) for t, _ in notes]
    wanted = [m["title"].replace("`", "") + "." for m in mistakes]
    if titles != wanted:
        fail(f"{where}: Moodle names {titles}; check names {wanted}")
    for (title, explanation), m in zip(notes, mistakes):
        words = " ".join(re.sub(r"\$([^$]+)\$", r"\\(\1\\)", m["feedback"]).replace("`", "").split())
        if explanation != words and (explanation or len(mistakes) == 1):
            fail(f"{where}: Moodle explains {m['title']!r} as {explanation!r}; check's words are {words!r}")


def check_answer_size(name, subquestions):
    """Issue 40, item 10: a bank of 82 questions was 9.9 MB. What a Cloze answer must hold is its number, credit and
    tolerance (under 40 characters of syntax, `~%33.33333%1049999.5:4999.5#`) and grade's words for it: one mistake
    explained, or several named (each explained once in its box). So the answers may take, on average, 40
    characters and one explanation each (the mean feedback of the answers that name one mistake, measured here),
    however many of them name several; the sheet and the worked solution are what they are and are not counted.
    Measured: week 3's 30 variants took 350 characters an answer before, against a bound of 251, and 194 after;
    training-compute's question 311 before, against 193, and 176 after."""
    answers = [a for sub in subquestions for a in sub["answers"]]
    single = [len(a["feedback"]) for a in answers if a["feedback"].count("<strong>") == 1]
    spent = sum(len(a["answer"]) + len(a["tolerance"] or "") + len(a["feedback"]) for a in answers) / len(answers)
    bound = sum(single) / len(single) + 40
    if spent > bound:
        fail(f"{name}: answers take {spent:.0f} characters each on average, more than one explanation and the "
             f"answer's syntax ({bound:.0f}): something is repeated in them")


def check_sigfigs_edges(binary, source, spec, root):
    """{sigfigs: 3} whole values in Moodle as rule 1 has them. By hand: 787,968's third figure is the thousands and
    1,050,624's the ten-thousands, so rule 1's intervals are 787,968 +- 500 and 1,050,624 +- 5,000 (not the numbers
    that round to 7.88e5 and 1.05e6: 1,055,000 is right, 1,045,000 is not). Moodle agrees at every edge; check at
    the points well inside and outside (7.88e5, 1.05e6, 1,052,000; 7.9e5, 1.1e6, 1,040,000)."""
    (_, subquestions, _), = check_bank(root)["$course$/top/headcount/sig"]
    cases = {"a": (787968, ["787968", "788000", "787700", "7.88e5"], ["790000", "786000", "789000", "7.9e5"]),
             "b": (1050624, ["1050624", "1050000", "1052000", "1.05e6"], ["1100000", "1040000", "1060000", "1.1e6"])}
    for (part, (value, inside, outside)), sub in zip(cases.items(), subquestions):
        if sub["kind"] != "numerical":
            fail(f"({part}) a count under 2^53 is a {sub['kind']} box")
        rights = [(a["answer"], a["tolerance"]) for a in sub["answers"] if a["percent"] == 100]
        reach = 10 ** (len(str(value)) - 3) // 2
        if rights != [(str(value), str(reach))]:
            fail(f"({part}) right answers {rights}; rule 1's is {value} +- {reach}")
        check_rule1_edges(binary, source, spec, part, sub, Fraction(value), 3, inside, outside)


def check_listed_values(binary, source, spec, root, listed_root):
    """Each value grade tells apart reaches, in Moodle, an answer with grade's credit and grade's mistakes. The
    values are those a bank of the same spec with exact tolerance lists (one answer each, no band); the verdicts
    are `check`'s. Roundings are left out: grade's verdict on them depends on how they are typed (docs/students.md)."""
    (_, subquestions, _), = check_bank(root)["$course$/top/headcount/sig"]
    (_, listed, _), = check_bank(listed_root)["$course$/top/headcount/sig"]
    for part, sub, values, right in zip("ab", subquestions, listed, (787968, 1050624)):
        for value in values["answers"]:
            if value["answer"] == "*" or "significant figure" in value["feedback"]:
                continue
            typed = value["answer"]
            answer = moodle_match(sub["answers"], typed)
            percent, titles, mistakes = grade_verdict(binary, source, spec, part, typed)
            if (percent == 100) != (abs(Fraction(typed) - right) <= rule1_reach(Fraction(right), 3)):
                fail(f"sig.yaml ({part}) {typed}: rule 1 says {'not ' if percent == 100 else ''}right, check "
                     f"{'right' if percent == 100 else 'not right'}; Moodle gives {answer['percent']:.0f}%")
            named = {t for t in titles if t in html_entity_decode(re.sub(r"<[^>]*>", "", answer["feedback"]))}
            strong = len(re.findall(r"<strong>", answer["feedback"]))
            if answer["percent"] != percent or named != titles or strong != len(titles):
                fail(f"({part}) typing {int(typed):,} in Moodle gives {answer['percent']}% and "
                     f"{answer['feedback'][:90]!r}; grade gives {percent}% and {sorted(titles)}")
            check_feedback_words(f"({part}) {int(typed):,}", answer["feedback"], mistakes)


def moodle_verdict(sub, typed):
    """What Moodle's box gives a typed answer: (percent, the titles of the mistakes its feedback names), the catch-all
    naming none."""
    answer = box_match(sub, typed)
    if answer is None:
        return 0.0, set()
    titles = {html_entity_decode(re.sub(r"<[^>]*>", "", t)).removesuffix(".") for t, _ in
              feedback_notes(answer["feedback"])}
    return answer["percent"], titles


def check_mistake_band(binary, source, spec, part, sub, value, figures, others):
    """Issue 39, rules 6 and 8: check names a mistake for an answer within half a unit in the part's last required
    figure of the mistake's value, as it judges a right answer, and Moodle's answer for that value must reach exactly
    as far: at rule 1's edges (typed to 12 decimals towards the inside when they do not end there; whole numbers at
    the whole edges) Moodle and check name the same mistakes with the same credit, and just past them (the whole
    numbers next out, and a millionth of the reach out) both no longer name the mistake. `value` is a Fraction, the
    mistake's value derived by the caller; `others` the other values listed in the box (the right one, other
    mistakes, roundings), as Fractions. A point where another value's interval overlaps is left out: there check
    names the mistakes its precedence keeps among those whose intervals hold the number, and a Moodle box the ones of
    the answer that comes first (docs/platforms.md). Returns how many points were compared."""
    reach = rule1_reach(value, figures)
    lo, hi = value - reach, value + reach
    points = [(decimal_text(lo, up=True), True), (decimal_text(hi, up=False), True),
              (decimal_text(lo - reach / 10 ** 6, up=False), False), (decimal_text(hi + reach / 10 ** 6, up=True), False)]
    if reach >= 1:
        points += [(str(math.ceil(lo)), True), (str(math.floor(hi)), True), (str(math.ceil(lo) - 1), False),
                   (str(math.floor(hi) + 1), False)]
    compared = 0
    for text, inside in points:
        x = Fraction(Decimal(text))
        # (A value listed to 14 figures, as Moodle keeps numbers, is this one.) Where another value's interval holds
        # the point, or the value itself, check's verdict there follows its precedence (one mistake over two made
        # together, a listed one over derived ones that come near it), which one Moodle answer per value cannot.
        if any(abs(x - o) <= rule1_reach(o, figures) or abs(value - o) <= rule1_reach(o, figures)
               for o in others if abs(o - value) > abs(value) / 10 ** 12):
            continue
        if "." not in text and len(text.rstrip("0")) < figures:
            continue  # fewer figures than the part asks for: check judges how it is written, Moodle only the value
        moodle, checked = moodle_verdict(sub, text), grade_verdict(binary, source, spec, part, text)
        checked = (checked[0], {t.replace("`", "") for t in checked[1]})
        if moodle != checked:
            fail(f"{os.path.basename(spec)} ({part}) {text}, {'inside' if inside else 'outside'} the interval of the "
                 f"mistake {float(value)!r}: Moodle gives {moodle[0]:.0f}% naming {sorted(moodle[1])}, check "
                 f"{checked[0]:.0f}% naming {sorted(checked[1])}")
        if bool(checked[1]) != inside:
            fail(f"{os.path.basename(spec)} ({part}) {text}: check {'names' if checked[1] else 'names no'} mistake, "
                 f"{'inside' if inside else 'outside'} rule 1's interval of {float(value)!r}")
        compared += 1
    return compared


def check_mistake_edges_whole(binary, source, spec, root, listed_root):
    """Every mistake's band of week 3 at three figures (whole values) at its edges, against check. The values are
    those the exact bank of the same spec lists, right and wrong; the right ones are 3d^2 + 3d = 787,968 and 4d^2 + 4d
    = 1,050,624 for d = 512 (by hand)."""
    (_, subquestions, _), = check_bank(root)["$course$/top/headcount/sig"]
    (_, listed, _), = check_bank(listed_root)["$course$/top/headcount/sig"]
    compared = 0
    for part, sub, values, right in zip("ab", subquestions, listed, (787968, 1050624)):
        listed_values = [Fraction(a["answer"]) for a in values["answers"] if a["answer"] != "*"]
        for a in values["answers"]:
            if a["answer"] == "*" or a["percent"] == 100 or "significant figure" in a["feedback"]:
                continue
            compared += check_mistake_band(binary, source, spec, part, sub, Fraction(a["answer"]), 3,
                                           listed_values + [Fraction(right)])
    if compared < 20:
        fail(f"only {compared} points at the edges of mistakes' bands compared with check")


def check_defined_quantities(binary, source, out):
    """A spec's own quantities (problems/training-compute.yaml): an exact count past 2^64 and a time in days at three
    figures. Each answer the bank lists, typed into Moodle, reaches an answer with check's credit and mistakes. The
    count is past 2^53, so it is no float band (Moodle's allowance, 1e-14 of 3.15e23, would take in 3.15e9 numbers
    each way) but a text box of its digits and their roundings; so is the same count asked at three figures. By
    hand: 6 * 175e9 * 300e9 = 3.15e23 exactly; the time is 3.15e23 / (1024 * 312e12 * 0.45) / 86400 =
    25.3588... days, whose third figure is the tenths: rule 1's interval is 25.3588... +- 0.05."""
    spec = "problems/training-compute.yaml"
    with open(os.path.join(source, spec)) as f:
        text = f.read()
    sig_spec = os.path.join(out, "compute-sig.yaml")
    with open(sig_spec, "w") as f:
        f.write(text.replace("  - {id: a, ask: train_flops}", "  - {id: a, ask: train_flops, tolerance: {sigfigs: 3}}"))
    flops = Fraction(6 * 175 * 10 ** 9 * 300 * 10 ** 9)
    days = flops / (1024 * 312 * 10 ** 12 * Fraction(45, 100)) / 86400
    for path, name, figures in ((spec, "defined", None), (sig_spec, "defined-sig", 3)):
        run(binary, source, "export", "moodle", path, "--variants", "1", "--seed", "s", "--out", f"{out}/{name}")
        _, root = load(f"{out}/{name}/questions.xml")
        (_, subquestions, _), = check_bank(root)["$course$/top/headcount/gpt3-compute"]
        for part, sub in zip("ab", subquestions):
            for value in sub["answers"]:
                if value["answer"] == "*":
                    continue
                typed = value["answer"]
                answer = box_match(sub, typed)
                percent, titles, mistakes = grade_verdict(binary, source, path, part, typed)
                titles = {t.replace("`", "") for t in titles}  # Markdown's code spans are <code> in Moodle's HTML
                named = {t for t in titles if t in html_entity_decode(re.sub(r"<[^>]*>", "", answer["feedback"]))}
                if answer["percent"] != percent or named != titles:
                    fail(f"{name} ({part}) typing {typed} in Moodle gives {answer['percent']}% and "
                         f"{answer['feedback'][:90]!r}; check gives {percent}% and {sorted(titles)}")
                if answer["percent"] < 100:
                    check_feedback_words(f"{name} ({part}) {typed}", answer["feedback"], mistakes)
        if subquestions[0]["kind"] != "shortanswer":
            fail(f"{name} (a): 3.15e23 is past 2^53 and in a {subquestions[0]['kind']} box, not matched as text")
        typed_ok = ["315000000000000000000000", "315,000,000,000,000,000,000,000", "3.15e23", "3.15E23"]
        # At three figures the box also lists rule 1's interval to four figures, 3.145e23 to 3.155e23 (half a unit
        # in the third figure is 5e20): check takes each as right, and so must Moodle; 3.156e23 and 3.144e23 are out.
        check_rule1_edges(binary, source, path, "a", subquestions[0], flops, figures,
                          typed_ok if figures is None else typed_ok + ["3.145e23", "3.152e23", "3.150e23", "3.155e23"],
                          ["3.1e23", "105000000000000000000000", "3.2e23", "315000000000000000000001"] if figures is None
                          else ["3.1e23", "1.05e23", "3.2e23", "316000000000000000000000", "3.156e23", "3.144e23"])
        if figures is None:  # the other part is the same in both banks
            check_answer_size("training-compute", subquestions)
            check_rule1_edges(binary, source, path, "b", subquestions[1], days, 3,
                              ["25.36", "25.3588", "25.35", "25.4", "2.54e1"],
                              ["25.3", "25.5", "25.47", "25.2", "2.53e1"])
            # Its mistakes' bands, a value that is not whole, by hand (tests/quantities_cli_test.cpp names them): mfu
            # multiplied where it divides, days x 0.45^2 = 5.1352...; mfu left out, days x 0.45 = 11.411...; the time
            # in hours, days x 24 = 608.61...
            listed_b = [Fraction(Decimal(a["answer"])) for a in subquestions[1]["answers"] if a["answer"] != "*"]
            compared = sum(check_mistake_band(binary, source, path, "b", subquestions[1], mistake, 3, listed_b + [days])
                           for mistake in (days * Fraction(81, 400), days * Fraction(9, 20), days * 24))
            if compared < 8:
                fail(f"only {compared} points at the edges of the time's mistakes compared with check")


def main():
    binary, source = sys.argv[1], sys.argv[2]
    specs = ["problems/week3-mha-params.yaml", "problems/mha-shapes-memory.yaml", "problems/mha-flops-long-context.yaml"]
    roster = ["--roster", "tests/class/roster.csv", "--seed", "fall-2026"]
    with open(os.path.join(source, "tests/class/roster.csv"), newline="") as f:
        people = list(csv.DictReader(f))
    names = [p[c] for p in people for c in ("student", "email")] + [w for p in people for w in p["name"].split()]
    # Cloze syntax where an instructor writes text: a subquestion, a placeholder for one.
    injected_title = "Braces {1:SHORTANSWER:=injected} and {#1}"
    injected_text = "Count W_Q, W_K and W_V. {2:NUMERICAL:=5#x}"
    with tempfile.TemporaryDirectory() as out:
        run(binary, source, "generate", *specs, *roster, "--out", f"{out}/md")
        run(binary, source, "export", "moodle", *specs, *roster, "--out", f"{out}/class")
        run(binary, source, "export", "moodle", "problems/week3-mha-params.yaml", "--variants", "30", "--seed", "s1",
            "--out", f"{out}/all")
        run(binary, source, "export", "moodle", "problems/week3-mha-params.yaml", "--variants", "30", "--seed", "s1",
            "--out", f"{out}/again")
        # Partial credit set in the spec: half for forgetting the biases, a quarter for a rounding.
        spec = os.path.join(out, "credit.yaml")
        with open(spec, "w") as f:
            f.write("id: credit\ntitle: Partial credit\ngiven: {d_model: 512, h: 8, bias: true}\nfeedback: hints\n"
                    "parts:\n  - id: b\n    ask: total_params\n    points: 1.5\n"
                    "    credit: {missing_biases: 0.5, rounded: 0.25}\n")
        run(binary, source, "export", "moodle", spec, "--variants", "1", "--seed", "s", "--out", f"{out}/credit")
        spec = os.path.join(out, "inject.yaml")
        with open(spec, "w") as f:
            f.write(f"id: inject\ntitle: '{injected_title}'\ngiven: {{d_model: 512, h: 8, bias: true}}\nparts:\n"
                    f"  - id: a\n    ask: qkv_params\n    points: 2\n    text: '{injected_text}'\n"
                    "  - id: b\n    ask: total_params\n    points: 3\n")
        run(binary, source, "export", "moodle", spec, "--variants", "1", "--seed", "s", "--out", f"{out}/inject")
        # Week 3 at three significant figures, and the same spec exact, whose bank lists each value on its own.
        for name, tolerance in (("sig", "{sigfigs: 3}"), ("sig-exact", "exact")):
            with open(os.path.join(out, f"{name}.yaml"), "w") as f:
                f.write(f"id: sig\ntitle: Three figures\ngiven: {{d_model: 512, h: 8, bias: true}}\nparts:\n"
                        f"  - id: a\n    ask: qkv_params\n    points: 2\n    tolerance: {tolerance}\n"
                        f"  - id: b\n    ask: total_params\n    points: 3\n    tolerance: {tolerance}\n")
            run(binary, source, "export", "moodle", os.path.join(out, f"{name}.yaml"), "--variants", "1", "--seed",
                "s", "--out", f"{out}/{name}")
        _, sig_root = load(f"{out}/sig/questions.xml")
        _, exact_root = load(f"{out}/sig-exact/questions.xml")
        check_sigfigs_edges(binary, source, os.path.join(out, "sig.yaml"), sig_root)
        check_defined_quantities(binary, source, out)
        check_listed_values(binary, source, os.path.join(out, "sig.yaml"), sig_root, exact_root)
        check_mistake_edges_whole(binary, source, os.path.join(out, "sig.yaml"), sig_root, exact_root)
        # Exact, every digit: rule 1 is half a unit in the last, 787,968 +- 0.5.
        (_, exact_subquestions, _), = check_bank(exact_root)["$course$/top/headcount/sig"]
        check_rule1_edges(binary, source, os.path.join(out, "sig-exact.yaml"), "a", exact_subquestions[0],
                          Fraction(787968), None, ["787968", "7.87968e5"], ["787969", "787967", "788000", "7.88e5"])
        with open(f"{out}/md/key.csv", newline="", encoding="utf-8") as f:
            key = list(csv.DictReader(f))
        class_bytes, class_root = load(f"{out}/class/questions.xml")
        all_bytes, all_root = load(f"{out}/all/questions.xml")
        again_bytes, _ = load(f"{out}/again/questions.xml")
        _, credit_root = load(f"{out}/credit/questions.xml")
        _, inject_root = load(f"{out}/inject/questions.xml")

    if all_bytes != again_bytes:
        fail("the same seed gave different banks")
    check_injection(inject_root, injected_title, injected_text)

    # A class bank: one category per problem, every student's variant present, its right answers key.csv's.
    categories = check_bank(class_root, names=names)
    if sorted(categories) != sorted(f"$course$/top/headcount/{p}" for p in
                                    ("week3-mha-params", "mha-shapes-memory", "mha-flops-long-context")):
        fail(f"categories {sorted(categories)}")
    checked = 0
    for row_problem in ("week3-mha-params", "mha-shapes-memory", "mha-flops-long-context"):
        questions = categories[f"$course$/top/headcount/{row_problem}"]
        students = {r["student"] for r in key if r["problem"] == row_problem}
        for student in students:
            rows = [r for r in key if r["student"] == student and r["problem"] == row_problem]
            givens = {g: rows[0][g] for g in ("d_model", "h", "bias") if rows[0].get(g)}
            wanted = ", ".join(f"{g} = {v}" for g, v in givens.items())
            match = [q for q in questions if (not wanted or q[0].findtext("name/text").endswith(": " + wanted))]
            if len(match) != 1:
                fail(f"{student}'s variant of {row_problem} ({wanted}) is {len(match)} questions")
            subquestions = match[0][1]
            if len(subquestions) != len(rows):
                fail(f"{row_problem}: {len(subquestions)} subquestions for {len(rows)} parts")
            for sub, row in zip(subquestions, rows):
                right = [a["answer"] for a in sub["answers"] if a["percent"] == 100]
                if sub["kind"] == "numerical":
                    if right != [row["answer"]]:
                        fail(f"{row_problem} ({row['part']}): right answer {right}, key.csv {row['answer']}")
                elif sub["kind"] == "shortanswer":
                    if row["answer"] not in right:
                        fail(f"{row_problem} ({row['part']}): key.csv's {row['answer']} not among {right}")
                elif right != [row["answer"]]:
                    fail(f"{row_problem} ({row['part']}): right choice {right}, key.csv {row['answer']}")
                checked += 1

    # A drawn bank of week 3: 30 variants (all valid ones), each checked against the formulas and the rounding rule.
    categories = check_bank(all_root)
    questions = categories["$course$/top/headcount/week3-mha-params"]
    if len(questions) != 30:  # 5 widths x 3 head counts x 2 bias settings, all valid
        fail(f"{len(questions)} week-3 variants, expected 30")
    seen = set()
    for question, subquestions, text in questions:
        name = question.findtext("name/text")
        m = re.search(r"d_model = (\d+), h = (\d+), bias = (true|false)$", name)
        if not m:
            fail(f"question name {name!r} does not say its numbers")
        d, h, bias = int(m.group(1)), int(m.group(2)), m.group(3) == "true"
        seen.add((d, h, bias))
        if "\\(d_{model}\\)" not in text or f">{d:,}<" not in text:
            fail(f"{name}: the question does not show d_model = {d} with \\(...\\) math")
        qkv, total = 3 * d * d + (3 * d if bias else 0), 4 * d * d + (4 * d if bias else 0)
        kinds = [(s["weight"], s["kind"]) for s in subquestions]
        if kinds != [(2, "numerical"), (3, "numerical")]:
            fail(f"{name}: weights and types {kinds}; the spec gives 2 and 3 points")
        for value, sub in zip((qkv, total), subquestions):
            answers = sub["answers"]
            right = [(a["answer"], a["tolerance"]) for a in answers if a["percent"] == 100]
            if right != [(str(value), "0.5")]:  # rule 1: every digit, half a unit in the last
                fail(f"{name}: right answer {right}, expected {value} +- 0.5")
            listed = {int(a["answer"]): a for a in answers if a["answer"] != "*"}
            halves = {v for v, a in listed.items() if a["percent"] == 50}
            roundings = sig_roundings(value)
            # Every rounding the rule of docs/students.md accepts is half credit, unless a mistake gives that very number.
            for r in roundings:
                if r not in listed:
                    fail(f"{name}: {value} rounded to {r} is not an answer")
            for v in halves:
                if v not in roundings:
                    fail(f"{name}: {v} gets half credit but is not a rounding of {value}")
                if "significant figure" not in listed[v]["feedback"]:
                    fail(f"{name}: the rounding {v} is not explained: {listed[v]['feedback'][:80]!r}")
            if bias:  # forgetting every bias: 3d^2 / 4d^2, no credit by default, named
                missing = value - (3 * d if value == qkv else 4 * d)
                if missing not in listed or listed[missing]["percent"] != 0 or \
                        "bias" not in listed[missing]["feedback"].lower():
                    fail(f"{name}: {missing} (biases left out) is not a 0% answer about biases")
            # Feedback follows the default reveal policy (hints): no expected value, with or without separators.
            for a in answers:
                if a["percent"] < 100 and (str(value) in a["feedback"] or f"{value:,}" in a["feedback"]):
                    fail(f"{name}: feedback for {a['answer']} shows the expected value {value}")
    if len(seen) != 30:
        fail(f"{len(seen)} different week-3 variants in a bank of 30")
    check_answer_size("week 3, 30 variants", [sub for _, subquestions, _ in questions for sub in subquestions])

    # Credits set in the spec reach Moodle: 1.5 points become weight 3 (Cloze weights are integers).
    (question, subquestions, _), = check_bank(credit_root)["$course$/top/headcount/credit"]
    sub, = subquestions
    total = 4 * 512 * 512 + 4 * 512
    listed = {a["answer"]: a["percent"] for a in sub["answers"]}
    if sub["weight"] != 3 or listed.get(str(4 * 512 * 512)) != 50 or listed.get("1050000") != 25:
        fail(f"partial credit: weight {sub['weight']}, biases {listed.get(str(4 * 512 * 512))}%, "
             f"1050000 {listed.get('1050000')}% (expected 3, 50, 25 for {total})")
    print(f"moodle xml: {checked} class answers against key.csv, 30 week-3 variants against the formulas, "
          "rounding and credit checked, three-figure edges and each listed value agree with check, Cloze syntax in "
          "a spec kept as text, no white space lost to Moodle's XML reader; banks are byte-identical for the same "
          "seed")

if __name__ == "__main__":
    main()
