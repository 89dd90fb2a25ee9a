#!/usr/bin/env python3
"""Checks headcount's Canvas package (export canvas) as Canvas's QTI import reads it.

Usage: check_qti.py HEADCOUNT_BINARY SOURCE_DIR.

Canvas is not available here. The package is opened with zipfile and every XML file with xml.etree, and checked for
what Canvas's importer needs (as Canvas's own QTI export, text2qti and R's exams2canvas write it): imsmanifest.xml
whose resources name files that exist, the assessment with a question group (a section with selection_number 1 and
points_per_item) per problem, items of a question type Canvas accepts (fill_in_multiple_blanks_question) whose
blanks [name] in the question text each have a response_lid response_name, answers that are the right ones (from
key.csv, or from the formulas for week 3), SCORE shares that add to 100, feedback ids that exist, and
assessment_meta.xml. Also: no student's name, no $...$ math, the same bytes for the same seed.

Canvas's own handling of a question text is rewritten below from its source: the importer parses the HTML and
writes it back (gems/plugins/qti_exporter/lib/qti/html_helper.rb, sanitize_html_string: Nokogiri, so a character
reference such as &#91; comes back as the character), and a quiz replaces the first "[blank]" in the text with the
blank's box (app/models/quizzes/quiz.rb, decorate_question_for_submission: text.sub). The worked solution is the
question's general comment only when asked for: Canvas shows that comment after every submission, whatever the
quiz says about correct answers.
"""
import csv
import json
from decimal import Decimal
from fractions import Fraction
import html
import html.parser
import io
import os
import re
import subprocess
import sys
import tempfile
import xml.etree.ElementTree as ET
import zipfile

QTI = "{http://www.imsglobal.org/xsd/ims_qtiasiv1p2}"
CP = "{http://www.imsglobal.org/xsd/imsccv1p1/imscp_v1p1}"
CANVAS_TYPES = {"multiple_choice_question", "true_false_question", "short_answer_question",
                "fill_in_multiple_blanks_question", "multiple_answers_question", "multiple_dropdowns_question",
                "matching_question", "numerical_question", "calculated_question", "essay_question",
                "file_upload_question", "text_only_question"}


def fail(message):
    print(f"FAILED: {message}")
    sys.exit(1)


def run(binary, source, *args):
    result = subprocess.run([binary, *args], cwd=source, capture_output=True, text=True)
    if result.returncode != 0:
        fail(f"headcount {' '.join(args)} exited {result.returncode}: {result.stderr}")


def meta(item):
    return {f.findtext(f"{QTI}fieldlabel"): f.findtext(f"{QTI}fieldentry")
            for f in item.iter(f"{QTI}qtimetadatafield")}


def check_package(data, names=()):
    """Returns {group title: [(item metadata, question html, {blank: [accepted texts]})]}."""
    archive = zipfile.ZipFile(io.BytesIO(data))
    if archive.testzip() is not None:
        fail("a corrupt member in the zip")
    files = set(archive.namelist())
    manifest = ET.fromstring(archive.read("imsmanifest.xml"))
    resources = manifest.findall(f"{CP}resources/{CP}resource")
    assessments = [r for r in resources if r.get("type") == "imsqti_xmlv1p2"]
    if len(assessments) != 1:
        fail(f"{len(assessments)} QTI assessments in the manifest")
    for r in resources:
        for f in r.findall(f"{CP}file"):
            if f.get("href") not in files:
                fail(f"the manifest names {f.get('href')}, which the zip lacks")
    ids = {r.get("identifier") for r in resources}
    for dep in assessments[0].findall(f"{CP}dependency"):
        if dep.get("identifierref") not in ids:
            fail("a dependency on a resource the manifest lacks")
    meta_xml = ET.fromstring(archive.read(next(n for n in files if n.endswith("assessment_meta.xml"))))
    if not meta_xml.tag.endswith("quiz") or not meta_xml.find("{http://canvas.instructure.com/xsd/cccv1p0}title").text:
        fail("assessment_meta.xml is not a Canvas quiz with a title")

    root = ET.fromstring(archive.read(assessments[0].find(f"{CP}file").get("href")))
    assessment = root.find(f"{QTI}assessment")
    root_section = assessment.find(f"{QTI}section")
    if root_section.get("ident") != "root_section":
        fail("the assessment's section is not root_section")
    groups = {}
    for group in root_section.findall(f"{QTI}section"):
        if group.findtext(f"{QTI}selection_ordering/{QTI}selection/{QTI}selection_number") != "1":
            fail("a question group that does not pick one question")
        per_item = float(group.findtext(f"{QTI}selection_ordering/{QTI}selection/{QTI}selection_extension/"
                                        f"{QTI}points_per_item"))
        items = []
        for item in group.findall(f"{QTI}item"):
            fields = meta(item)
            if fields.get("question_type") not in CANVAS_TYPES:
                fail(f"question type {fields.get('question_type')!r} is not one Canvas accepts")
            if fields["question_type"] != "fill_in_multiple_blanks_question":
                fail("each variant should be one fill_in_multiple_blanks_question")
            if float(fields["points_possible"]) != per_item:
                fail(f"an item worth {fields['points_possible']} in a group of {per_item}-point items")
            text = item.findtext(f"{QTI}presentation/{QTI}material/{QTI}mattext")
            if re.search(r"(?<![\\$])\$[^$\s][^$]*\$", text):
                fail("$...$ math left in a question")
            for name in names:
                if re.search(r"\b" + re.escape(name) + r"\b", text + item.get("title")):
                    fail(f"student name or id {name!r} in a question")
            blanks = re.findall(r"\[([A-Za-z0-9_]+)\]", text)
            accepted, label_ids = {}, {}
            for lid in item.findall(f"{QTI}presentation/{QTI}response_lid"):
                blank = lid.findtext(f"{QTI}material/{QTI}mattext")
                if lid.get("ident") != f"response_{blank}":
                    fail(f"response {lid.get('ident')} for blank {blank}")
                labels = lid.findall(f"{QTI}render_choice/{QTI}response_label")
                accepted[blank] = [l.findtext(f"{QTI}material/{QTI}mattext") for l in labels]
                label_ids[blank] = {l.get("ident") for l in labels}
            if blanks != list(accepted):
                fail(f"blanks in the text {blanks} but responses for {list(accepted)}")
            score = 0.0
            for condition in item.findall(f"{QTI}resprocessing/{QTI}respcondition"):
                var = condition.find(f"{QTI}conditionvar/{QTI}varequal")
                setvar = condition.find(f"{QTI}setvar")
                if var is not None and setvar is not None:
                    blank = var.get("respident")[len("response_"):]
                    if var.text not in label_ids.get(blank, ()):
                        fail(f"a score condition on an answer blank {blank} does not offer")
                    score += float(setvar.text)
                for shown in condition.findall(f"{QTI}displayfeedback"):
                    if item.find(f"{QTI}itemfeedback[@ident='{shown.get('linkrefid')}']") is None:
                        fail(f"feedback {shown.get('linkrefid')} is shown but not defined")
            if abs(score - 100) > 0.05:
                fail(f"the blanks' scores add to {score}, not 100")
            items.append((fields, item.get("title"), text, accepted))
        groups[group.get("title")] = items
    return groups


class CanvasHtml(html.parser.HTMLParser):
    """HTML parsed and written back as Canvas's importer does (Nokogiri's HTML parser, libxml2's serializer): text
    and attribute values decoded, then only &, < and > (and " in attributes) escaped again; comments dropped, as
    Sanitize drops them."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.out = []

    def handle_starttag(self, tag, attrs):
        self.out.append(f"<{tag}" + "".join(f' {k}="{html.escape(v or "", quote=True)}"' for k, v in attrs) + ">")

    def handle_startendtag(self, tag, attrs):
        self.handle_starttag(tag, attrs)

    def handle_endtag(self, tag):
        self.out.append(f"</{tag}>")

    def handle_data(self, data):
        self.out.append(html.escape(data, quote=False))


def canvas_question(text, blanks):
    """The question text a student's quiz shows: imported (parsed and written back), then for each blank the first
    [blank] replaced with its box, marked here <box blank>."""
    parser = CanvasHtml()
    parser.feed(text)
    parser.close()
    text = "".join(parser.out)
    for blank in blanks:
        text = re.sub(r"\[" + re.escape(blank) + r"\]", f"<box {blank}>", text, count=1)
    return text


def check_blanks_stay_put(data, title):
    """A title with a blank's name in brackets: each box lands in its own part's line, and the title reads as
    written."""
    (_, items), = check_package(data).items()
    for fields, name, text, accepted in items:
        shown = canvas_question(text, list(accepted))
        for blank in accepted:
            part = blank[len("part_"):]
            if f"<p>({part}) <box {blank}>" not in shown:
                fail(f"{name}: the box for [{blank}] is not in part ({part})'s line: "
                     f"{re.sub(r'<(?!box)[^>]*>', '', shown)[:300]!r}")
        if title not in html.unescape(re.sub(r"<[^>]*>", "", shown)):
            fail(f"{name}: the question does not show the title {title!r} as written")


def feedback_texts(data):
    """Each item's feedback as Canvas's importer files it: {item title: {comment kind: text}}, the kind taken from
    the feedback's ident as Qti::AssessmentItemConverter#get_feedback does (general_ is the neutral comment, shown
    for any answer)."""
    archive = zipfile.ZipFile(io.BytesIO(data))
    manifest = ET.fromstring(archive.read("imsmanifest.xml"))
    href = next(r for r in manifest.findall(f"{CP}resources/{CP}resource") if r.get("type") == "imsqti_xmlv1p2")
    root = ET.fromstring(archive.read(href.find(f"{CP}file").get("href")))
    out = {}
    for item in root.iter(f"{QTI}item"):
        kinds = {}
        for feedback in item.findall(f"{QTI}itemfeedback"):
            ident = feedback.get("ident")
            kind = ("incorrect" if re.search(r"wrong|incorrect|(_IC$)", ident, re.I) else
                    "correct" if re.search(r"correct|(_C$)", ident, re.I) else
                    "neutral" if re.search(r"general_|_all", ident, re.I) else ident)
            kinds[kind] = "".join(feedback.itertext())
        out[item.get("title")] = kinds
    return out


def check_solutions(default, with_solutions):
    """Without --solutions-in-bank no item carries the worked solution; with it, each item's neutral comment is
    its solution, which shows the right total (4d^2 + 4d with biases, 4d^2 without, worked out here)."""
    for data, wanted in ((default, False), (with_solutions, True)):
        for name, kinds in feedback_texts(data).items():
            m = re.search(r"d_model = (\d+), h = (\d+), bias = (true|false)$", name)
            d, bias = int(m.group(1)), m.group(3) == "true"
            total = 4 * d * d + (4 * d if bias else 0)
            shown = any(f"{total:,}" in text or str(total) in text for text in kinds.values())
            if shown != wanted or ("neutral" in kinds) != wanted:
                fail(f"{name}: comments {sorted(kinds)}, the total {total:,} {'' if shown else 'not '}among them; "
                     f"expected the worked solution {'as the neutral comment' if wanted else 'nowhere'}")


def main():
    binary, source = sys.argv[1], sys.argv[2]
    specs = ["problems/week3-mha-params.yaml", "problems/mha-shapes-memory.yaml", "problems/mha-flops-long-context.yaml"]
    roster = ["--roster", "tests/class/roster.csv", "--seed", "fall-2026"]
    with open(os.path.join(source, "tests/class/roster.csv"), newline="") as f:
        people = list(csv.DictReader(f))
    names = [p[c] for p in people for c in ("student", "email")] + [w for p in people for w in p["name"].split()]
    with tempfile.TemporaryDirectory() as out:
        run(binary, source, "generate", *specs, *roster, "--out", f"{out}/md")
        run(binary, source, "export", "canvas", *specs, *roster, "--out", f"{out}/class")
        for folder in ("one", "two"):
            run(binary, source, "export", "canvas", "problems/week3-mha-params.yaml", "--variants", "12", "--seed",
                "s1", "--out", f"{out}/{folder}")
        run(binary, source, "export", "canvas", "problems/week3-mha-params.yaml", "--variants", "3", "--seed", "s1",
            "--out", f"{out}/solutions", "--solutions-in-bank")
        # A title that names a blank: Canvas would put part b's box in the title.
        blank_title = "Counting [part_b] parameters"
        spec = os.path.join(out, "brackets.yaml")
        with open(spec, "w") as f:
            f.write(f"id: brackets\ntitle: '{blank_title}'\ngiven: {{d_model: 512, h: 8, bias: true}}\nparts:\n"
                    "  - id: a\n    ask: qkv_params\n    points: 2\n"
                    "    text: 'How many parameters do [part_a] W_Q, W_K and W_V hold, $[part_b]$?'\n"
                    "  - id: b\n    ask: total_params\n    points: 3\n")
        run(binary, source, "export", "canvas", spec, "--variants", "1", "--seed", "s", "--out", f"{out}/brackets")
        # A spec's own quantities: the exact count past 2^64 (6 x 175e9 x 300e9) in its forms, and 25.3588 days
        # to three and four figures (by hand: 25.4 and 25.36).
        run(binary, source, "export", "canvas", "problems/training-compute.yaml", "--variants", "1", "--seed", "s",
            "--out", f"{out}/defined")
        with open(f"{out}/defined/qti.zip", "rb") as f:
            (defined_items,) = check_package(f.read()).values()
        (_, _, _, defined_accepted), = defined_items
        if not {"315000000000000000000000", "315,000,000,000,000,000,000,000"} <= set(defined_accepted["part_a"]):
            fail(f"the training compute is accepted as {defined_accepted['part_a']}")
        if not {"25.4", "25.36"} <= set(defined_accepted["part_b"]):
            fail(f"the training time is accepted as {defined_accepted['part_b']}")
        # Rule 1 (issue 39) in Canvas, as in Moodle: at three figures the right value's every text check takes as
        # right. By hand, 1,050,624's third figure is the ten-thousands: rule 1 takes 1,050,624 +- 5,000, so
        # 1.05e6 and 1050000 are right and 1.1e6 (two figures, "rounded") is not; so is the interval to four figures,
        # 1.046e6 to 1.055e6, and not 1.045e6 (624 short of its lower end) or 1.056e6.
        spec = os.path.join(out, "sig.yaml")
        with open(spec, "w") as f:
            f.write("id: sig\ntitle: Three figures\ngiven: {d_model: 512, h: 8, bias: true}\nparts:\n"
                    "  - {id: b, ask: total_params, points: 3, tolerance: {sigfigs: 3}}\n")
        run(binary, source, "export", "canvas", spec, "--variants", "1", "--seed", "s", "--out", f"{out}/sig")
        with open(f"{out}/sig/qti.zip", "rb") as f:
            (sig_items,) = check_package(f.read()).values()
        (_, _, _, sig_accepted), = sig_items
        if not {"1050624", "1.05e6", "1050000", "1.051e6", "1.046e6", "1.052e6", "1.055e6"} <= \
                set(sig_accepted["part_b"]) or \
                {"1.1e6", "1100000", "1.0e6", "1.045e6", "1.056e6"} & set(sig_accepted["part_b"]):
            fail(f"at three figures 1,050,624 is accepted as {sig_accepted['part_b']}")
        for typed in sig_accepted["part_b"]:
            value = Fraction(Decimal(typed.replace(",", "").replace(" ", "")))
            if abs(value - 1050624) > 5000:
                fail(f"Canvas accepts {typed}, outside rule 1's 1,050,624 +- 5,000")
            verdict = json.loads(subprocess.run([binary, "check", spec, "--part", "b", "--answer", typed, "--format",
                                                 "json"], cwd=source, capture_output=True, text=True).stdout)
            if verdict["status"] != "correct":
                fail(f"Canvas accepts {typed}; check says {verdict['status']}")
        if "3.15e23" not in defined_accepted["part_a"]:
            fail(f"the training compute is accepted as {defined_accepted['part_a']}, without 3.15e23")
        with open(f"{out}/md/key.csv", newline="", encoding="utf-8") as f:
            key = list(csv.DictReader(f))
        data = {name: open(f"{out}/{name}/qti.zip", "rb").read()
                for name in ("class", "one", "two", "solutions", "brackets")}
    if data["one"] != data["two"]:
        fail("the same seed gave different packages")

    check_blanks_stay_put(data["brackets"], blank_title)
    check_solutions(data["one"], data["solutions"])

    groups = check_package(data["class"], names)
    if len(groups) != 3:
        fail(f"{len(groups)} question groups for 3 problems")
    checked = 0
    for row in key:
        items = [i for g in groups.values() for i in g if i[1].startswith(row["problem"] + " v")]
        givens = ", ".join(f"{g} = {row[g]}" for g in ("d_model", "h", "bias") if row.get(g))
        items = [i for i in items if not givens or i[1].endswith(": " + givens)]
        if len(items) != 1:
            fail(f"{row['student']}'s variant of {row['problem']} is {len(items)} items")
        accepted = list(items[0][3].values())[[k for k in key if k["student"] == row["student"] and
                                               k["problem"] == row["problem"]].index(row)]
        if row["answer"] not in accepted:
            fail(f"{row['problem']} ({row['part']}): key.csv's {row['answer']} is not accepted: {accepted}")
        checked += 1

    (title, items), = check_package(data["one"]).items()
    if len(items) != 12:
        fail(f"{len(items)} week-3 variants, expected 12")
    for fields, name, text, accepted in items:
        m = re.search(r"d_model = (\d+), h = (\d+), bias = (true|false)$", name)
        d, bias = int(m.group(1)), m.group(3) == "true"
        total = 4 * d * d + (4 * d if bias else 0)  # W_Q, W_K, W_V, W_O and their biases
        if float(fields["points_possible"]) != 5:
            fail(f"{name}: {fields['points_possible']} points; the parts give 2 + 3")
        if accepted["part_b"] != [str(total), f"{total:,}", f"{total:,}".replace(",", " ")]:
            fail(f"{name}: part b accepts {accepted['part_b']}, expected {total} in three forms")
    print(f"qti: {checked} class answers against key.csv, 12 week-3 variants against the formula; "
          "manifest, groups, blanks and scores as Canvas reads them; brackets in a title stay text; the worked "
          "solution only with --solutions-in-bank; byte-identical for the same seed")


if __name__ == "__main__":
    main()
