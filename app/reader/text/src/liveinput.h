#pragma once

// A number of the text the learner drags: {{input n=4096 from=256 to=16384
// step=256 log unit=rows}}, read into a LiveInput. Private to the chapter
// text library.

#include <chapters/chapterdocument.h>

#include <QString>

namespace course {

// Reads `spec` (the slot's text, "input ..."); false, with one sentence in
// `problem`, for a word an input does not take or values out of order.
bool parseLiveInput(const QString &spec, LiveInput &input, QString &problem);

} // namespace course
