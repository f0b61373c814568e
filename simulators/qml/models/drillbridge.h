#pragma once

#include <QString>
#include <QVariantMap>

#include <cstdint>

// The drills' questions and checks (coursework/drills.h) as QVariant maps for QML.
namespace simqml {

// {drill, kind, level, seed, prompt, givens: [{label, value}], code,
//  codeLanguage, fields: [{id, label, type, unit, choices, tolerance,
//  onlyWhenField, onlyWhenValue}]}; {error} when the kind is unknown.
QVariantMap drillQuestion(const QString &kind, int level, std::uint64_t seed);

// Regenerates the question from its kind, level and seed and checks
// `answers` (field id -> text): {refused, refusal} or {correct, fieldsRight,
// fieldsAsked, fields: [{id, label, given, readAs, expected, asked, correct}],
// steps: [{text, figure}]}.
QVariantMap drillCheck(const QString &kind, int level, std::uint64_t seed, const QVariantMap &answers);

} // namespace simqml
