#pragma once

#include <QColor>
#include <QString>
#include <QStringList>

namespace course {

// How live numbers look on the page they sit on.
struct LiveTextStyle
{
    QString fontFamily = QStringLiteral("Inter");
    QString monoFamily = QStringLiteral("JetBrains Mono");
    int pixelSize = 17;
    QColor text{0x11, 0x15, 0x1d};
    QColor predicted{0x8a, 0x5b, 0x00}; // a model's answer
    QColor fact{0x11, 0x15, 0x1d};      // a published figure
    QColor problem{0xc6, 0x28, 0x28};
    QColor codeBackground{0xeb, 0xe6, 0xdc};
};

// Chapter Markdown rendered to rich text with its live numbers filled in for
// `chip`. Each value is a link "value:N"; details[N] says what it is (for a
// tooltip). A placeholder that cannot be resolved is shown in place, marked,
// and listed in problems with its line.
struct LiveText
{
    QString html;
    QStringList details;
    QStringList problems;
    int values = 0;
    int refusals = 0; // well-formed numbers the model refuses on this chip (shown as such)
};

LiveText renderLiveText(const QString &markdown, const QString &chip, const LiveTextStyle &style = {});

// The fenced code blocks of a Markdown text whose info string is `language`.
struct CodeBlock
{
    QString language;
    QString code;
    int line = 0; // of the opening fence, 1-based
};
QList<CodeBlock> fencedBlocks(const QString &markdown);

} // namespace course
