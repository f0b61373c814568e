#include "labcatalog.h"
#include "runrecord.h"

#include <QCryptographicHash>
#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

QString LabInfo::scriptSha256() const
{
    QFile file(scriptPath);
    if (!file.open(QIODevice::ReadOnly))
        return {};
    QCryptographicHash hash(QCryptographicHash::Sha256);
    hash.addData(&file);
    return QString::fromLatin1(hash.result().toHex());
}

LabCatalog LabCatalog::fromResources()
{
    return read(QStringLiteral(":/labs/labs.json"), QStringLiteral(":/labs"));
}

LabCatalog LabCatalog::fromFolder(const QString &dir)
{
    return read(QDir(dir).filePath(QStringLiteral("labs.json")), dir);
}

LabCatalog LabCatalog::read(const QString &jsonPath, const QString &scriptDir)
{
    LabCatalog catalog;
    catalog.m_dir = scriptDir;
    QFile file(jsonPath);
    if (!file.open(QIODevice::ReadOnly)) {
        catalog.m_problem = QStringLiteral("the list of labs is missing from this build (%1).").arg(jsonPath);
        return catalog;
    }
    QJsonParseError error;
    const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
    const QJsonArray entries = doc.isArray() ? doc.array() : doc.object().value(QStringLiteral("labs")).toArray();
    if (error.error != QJsonParseError::NoError || entries.isEmpty()) {
        catalog.m_problem =
            QStringLiteral("the list of labs in this build cannot be read (%1).").arg(error.errorString());
        return catalog;
    }
    catalog.m_everyRecord = doc.object().value(QStringLiteral("checksOnEveryRecord")).toString();
    for (const QJsonValue &v : entries) {
        const QJsonObject o = v.toObject();
        LabInfo lab;
        lab.id = o.value(QStringLiteral("id")).toString();
        lab.chapter = o.value(QStringLiteral("chapter")).toInt();
        lab.name = o.value(QStringLiteral("name")).toString();
        lab.script = o.value(QStringLiteral("script")).toString();
        lab.goal = o.value(QStringLiteral("goal")).toString();
        for (const QJsonValue &c : o.value(QStringLiteral("commands")).toArray())
            lab.commands << c.toString();
        lab.gate = o.value(QStringLiteral("gate")).toString();
        lab.checks = o.value(QStringLiteral("checks")).toString();
        lab.scriptPath = QDir(scriptDir).filePath(lab.script);
        if (!QFile::exists(lab.scriptPath) && catalog.m_problem.isEmpty())
            catalog.m_problem =
                QStringLiteral("the script of lab %1 (%2) is missing from this build.").arg(lab.id, lab.script);
        catalog.m_labs.append(lab);
    }
    return catalog;
}

const LabInfo *LabCatalog::lab(const QString &id) const
{
    for (const LabInfo &l : m_labs)
        if (l.id == id)
            return &l;
    return nullptr;
}

const LabInfo *LabCatalog::labForGate(const QString &gate) const
{
    for (const LabInfo &l : m_labs)
        if (!gate.isEmpty() && l.gate == gate)
            return &l;
    return nullptr;
}

QStringList LabCatalog::exampleFingerprints() const
{
    QStringList out;
    const QDir examples(QDir(m_dir).filePath(QStringLiteral("examples")));
    for (const QString &name : examples.entryList({QStringLiteral("*.json")}, QDir::Files)) {
        QFile file(examples.filePath(name));
        if (file.open(QIODevice::ReadOnly))
            out << exampleFingerprint(QJsonDocument::fromJson(file.readAll()).object());
    }
    return out;
}
