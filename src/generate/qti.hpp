#pragma once
// A quiz Canvas imports ("QTI .zip file"): QTI 1.2 in Canvas's flavour (as Canvas itself exports it, and as text2qti
// and R's exams2canvas write it): imsmanifest.xml, the assessment, and Canvas's assessment_meta.xml. Each problem is
// a question group that picks one of its questions; each question is one variant with every part as a blank of a
// fill_in_multiple_blanks_question, so a student sees one variant's numbers in every part.
//
// What Canvas's types cannot express, and the form chosen: a blank accepts a list of texts, all fully right
// (compared ignoring case and surrounding spaces), so a count is accepted as digits, with commas or with spaces,
// a shape in its usual typed forms, a word with its synonyms; there is no tolerance band, no partial credit for a
// rounded value or a mistake, and no feedback tied to a wrong answer, so the feedback for a wrong answer names the
// mistakes headcount knows for each part (in words, safe under every reveal policy); and Canvas gives every blank of
// a question the same share of its points.

#include <generate/bank.hpp>
#include <render/templates.hpp>
#include <util/zip.hpp>

#include <string>
#include <vector>

namespace headcount::generate {

/// The package's files (imsmanifest.xml, <assessment>/<assessment>.xml, <assessment>/assessment_meta.xml), with
/// identifiers derived from the problems and variants so the same banks give the same bytes. `title` names the quiz.
/// With `solutions`, each question's general comment is its variant's worked solution, which Canvas shows under
/// the question after each submission; without, the package holds no solution.
Result<std::vector<ZipEntry>> qti_package(const std::vector<ProblemBank>& banks, const std::string& title,
                                          const render::TemplateSet& templates, bool solutions);

/// The texts a Canvas blank accepts for an answer: digits, with commas, with spaces; a shape's typed forms; a word
/// and its synonyms. Each once.
std::vector<std::string> canvas_forms(const solve::Ask& ask, const solve::Answer& answer);

} // namespace headcount::generate
