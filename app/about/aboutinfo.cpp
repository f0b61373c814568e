#include "aboutinfo.h"

#include "drawingchoice.h"

#include <tpusim/published.h>

#include <QVariantMap>
#include <QtGlobal>

#include <map>

QString AboutInfo::version() const
{
    return QStringLiteral(TPU_COURSE_VERSION);
}

// Set at configure time from git, when the sources are a checkout.
QString AboutInfo::commit() const
{
    const QString c = QStringLiteral(TPU_COURSE_COMMIT);
    return c.isEmpty() ? QStringLiteral("not recorded (built outside a git checkout)") : c;
}

QString AboutInfo::compiler() const
{
#if defined(__clang__)
    return QStringLiteral("clang %1").arg(QStringLiteral(__clang_version__));
#elif defined(__GNUC__)
    return QStringLiteral("GCC %1.%2.%3").arg(__GNUC__).arg(__GNUC_MINOR__).arg(__GNUC_PATCHLEVEL__);
#else
    return QStringLiteral("unknown");
#endif
}

QString AboutInfo::qtBuilt() const
{
    return QStringLiteral(QT_VERSION_STR);
}

QString AboutInfo::qtRunning() const
{
    return QString::fromLatin1(qVersion());
}

QString AboutInfo::drawing() const
{
    const QString why = drawing::current().why;
    return why.isEmpty() ? QStringLiteral("as Qt draws by default") : why;
}

QString AboutInfo::tablesChanged() const
{
    const QString d = QStringLiteral(TPU_COURSE_TABLES_DATE);
    return d.isEmpty() ? QStringLiteral("not recorded") : d;
}

QVariantList AboutInfo::tableFamilies() const
{
    std::map<tpusim::Family, int> rows;
    for (const tpusim::PublishedRow &r : tpusim::published_rows())
        ++rows[r.family];
    QVariantList out;
    for (const tpusim::Family f : tpusim::all_families())
        if (rows.count(f))
            out.append(QVariantMap{{"family", QString::fromStdString(std::string(tpusim::family_title(f)))},
                                   {"rows", rows[f]}});
    return out;
}

int AboutInfo::tableRows() const
{
    return static_cast<int>(tpusim::published_rows().size());
}

QVariantList AboutInfo::licences() const
{
    const auto entry = [](const char *what, const char *licence, const char *where) {
        return QVariantMap{{"what", QString::fromUtf8(what)},
                           {"licence", QString::fromUtf8(licence)},
                           {"where", QString::fromUtf8(where)}};
    };
    return {
        entry("tpu-course: the app, the simulator, the chapters and the labs", "Apache License 2.0", "LICENSE"),
        entry("Real IR dumps in D1's questions (from jax-ml/jax, openxla/stablehlo and openxla/xla)",
              "Apache License 2.0", "assets/drills/ir/SOURCES.tsv"),
        entry("The optimized HLO dump of exhibit M2 (from openxla/xla's tests)", "Apache License 2.0",
              "chapters/04-xla/exhibits/M2/SOURCE.md"),
        entry("Published TPU timings the simulator is validated on: figures with their sources, quoted",
              "each row names its source", "simulators/tpusim/data/published/README.md"),
        entry("Inter, the text's typeface", "SIL Open Font License 1.1", "fonts-inter"),
        entry("JetBrains Mono, the code's typeface", "Apache License 2.0 (as Debian ships it)", "fonts-jetbrains-mono"),
        entry("Qt 6", "LGPL 3", "libqt6core6 and the other Qt 6 packages"),
        entry("SQLite", "public domain", "libsqlite3"),
        entry("md4c, the Markdown parser", "MIT", "libmd4c"),
        entry("Graphviz, which lays out the fusion map", "Eclipse Public License 1.0", "libgvc6"),
        entry("Protocol Buffers, which reads profiles", "BSD 3-Clause", "libprotobuf"),
        entry("libgcrypt, for the history's SHA-256", "LGPL 2.1 or later", "libgcrypt20"),
        entry("zlib", "zlib licence", "zlib1g"),
    };
}
