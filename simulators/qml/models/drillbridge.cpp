#include "drillbridge.h"
#include "variants.h"

#include <coursework/drills.h>
#include <tpusim/error.h>

#include <QVariantList>

namespace simqml {

namespace {
const char *typeName(coursework::drills::FieldType t)
{
    using coursework::drills::FieldType;
    switch (t) {
        case FieldType::time:
            return "time";
        case FieldType::bytes:
            return "bytes";
        case FieldType::intensity:
            return "intensity";
        case FieldType::choice:
            return "choice";
        case FieldType::count:
            return "count";
        case FieldType::shape:
            return "shape";
        case FieldType::dims:
            return "dims";
    }
    return "choice";
}
} // namespace

QVariantMap drillQuestion(const QString &kind, int level, std::uint64_t seed)
{
    namespace d = coursework::drills;
    try {
        const d::Question q = d::generate(kind.toStdString(), level, seed);
        QVariantList givens, fields;
        for (const d::Given &g : q.givens)
            givens.append(QVariantMap{{"label", qs(g.label)}, {"value", qs(g.value)}});
        for (const d::Field &f : q.fields) {
            QStringList choices;
            for (const auto &c : f.choices)
                choices.append(qs(c));
            fields.append(QVariantMap{{"id", qs(f.id)},
                                      {"label", qs(f.label)},
                                      {"type", typeName(f.type)},
                                      {"unit", qs(f.unit)},
                                      {"choices", choices},
                                      {"tolerance", f.tolerance},
                                      {"onlyWhenField", qs(f.only_when_field)},
                                      {"onlyWhenValue", qs(f.only_when_value)}});
        }
        return {
            {"drill", qs(q.drill)},   {"kind", qs(q.kind)}, {"level", q.level},   {"seed", QString::number(q.seed)},
            {"prompt", qs(q.prompt)}, {"givens", givens},   {"code", qs(q.code)}, {"codeLanguage", qs(q.code_language)},
            {"fields", fields}};
    } catch (const tpusim::InputError &e) {
        return {{"error", QString::fromUtf8(e.what())}};
    }
}

QVariantMap drillCheck(const QString &kind, int level, std::uint64_t seed, const QVariantMap &answers)
{
    namespace d = coursework::drills;
    try {
        const d::Question q = d::generate(kind.toStdString(), level, seed);
        std::map<std::string, std::string> typed;
        for (auto it = answers.begin(); it != answers.end(); ++it)
            typed[it.key().toStdString()] = it.value().toString().toStdString();
        const d::Check c = d::check(q, typed);
        if (c.refused)
            return {{"refused", true}, {"refusal", qs(c.refusal)}, {"refusedField", qs(c.refused_field)}};
        QVariantList fields, steps;
        for (const d::FieldResult &f : c.fields) {
            QString label;
            for (const d::Field &qf : q.fields)
                if (qf.id == f.id)
                    label = qs(qf.label);
            fields.append(QVariantMap{{"id", qs(f.id)},
                                      {"label", label},
                                      {"given", qs(f.given)},
                                      {"readAs", qs(f.read_as)},
                                      {"expected", qs(f.expected).replace(QLatin1Char('|'), QStringLiteral(" or "))},
                                      {"asked", f.asked},
                                      {"correct", f.correct}});
        }
        for (const d::Step &s : c.steps)
            steps.append(QVariantMap{{"text", qs(s.text)}, {"figure", qs(s.figure)}, {"assumed", s.assumed}});
        return {{"refused", false},
                {"correct", c.correct},
                {"fieldsRight", c.fields_right},
                {"fieldsAsked", c.fields_asked},
                {"fields", fields},
                {"steps", steps}};
    } catch (const tpusim::InputError &e) {
        return {{"refused", true}, {"refusal", QString::fromUtf8(e.what())}};
    }
}

} // namespace simqml
