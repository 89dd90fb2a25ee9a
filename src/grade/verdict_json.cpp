#include <grade/verdict_json.hpp>

#include <render/answers.hpp>
#include <util/text.hpp>

namespace headcount::grade {

nlohmann::ordered_json verdict_json(const solve::SolvedProblem& solved, const solve::SolvedPart& part,
                                    const Verdict& verdict, const Feedback& feedback, spec::Reveal reveal) {
    // The answer is untrusted: JSON must be UTF-8, so bytes that are not are shown as U+FFFD.
    nlohmann::ordered_json out{{"problem", solved.problem.id},
                               {"part", part.part.id},
                               {"answer", is_valid_utf8(verdict.answer) ? verdict.answer : std::string("\uFFFD")}};
    if (verdict.read)
        out["value"] = render::json_answer(*part.ask, *verdict.read);
    else if (verdict.parsed)
        out["value"] = verdict.parsed->value;
    else
        out["value"] = nullptr;
    out["status"] = status_name(verdict.status);
    out["correct"] = verdict.status == Status::correct;
    out["score"] = verdict.score;
    out["points"] = verdict.points;
    if (verdict.status == Status::unreadable)
        out["reason"] = verdict.unreadable_reason;
    nlohmann::ordered_json mistakes = nlohmann::ordered_json::array();
    for (const MistakeNote& note : feedback.notes)
        mistakes.push_back({{"id", note.id}, {"title", note.title}, {"feedback", note.feedback}});
    out["mistakes"] = mistakes;
    // Slips that could each give the number, none asserted (issue 39's rule 6): their names, never their values.
    nlohmann::ordered_json possible = nlohmann::ordered_json::array();
    for (const Explanation& e : verdict.possible) {
        nlohmann::ordered_json ids = nlohmann::ordered_json::array();
        for (const Mistake* m : e.mistakes)
            ids.push_back({{"id", m->id}, {"title", m->title}});
        possible.push_back(e.mistakes.size() == 1 ? ids[0] : nlohmann::ordered_json{{"together", ids}});
    }
    out["possible_mistakes"] = possible;
    if (!verdict.accepted.empty()) // a reading the part accepts (`accept:`): its sentence
        out["accepted"] = verdict.accepted;
    if (part.formula) // answer: formula: whether it agrees at the problem's givens only (another formula)
        out["right_here_only"] = verdict.right_here_only;
    out["feedback_policy"] = spec::reveal_name(reveal);
    if (reveal == spec::Reveal::full) {
        out["expected"] = render::json_answer(*part.ask, verdict.expected);
        if (part.formula)
            out["expected_formula"] = part.formula_text;
    }
    return out;
}

} // namespace headcount::grade
