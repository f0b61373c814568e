#pragma once

#include <QObject>
#include <QStringList>
#include <QVariantList>
#include <QVariantMap>

// The simulator for QML pages: chips, their sheets and the bench. Every
// answer carries its provenance map (see variants.h). Errors from bad input
// come back as {error: "one sentence"} rather than exceptions.
class SimBridge : public QObject
{
    Q_OBJECT
    Q_PROPERTY(QVariantList chips READ chips CONSTANT)
    Q_PROPERTY(QString defaultChip READ defaultChip CONSTANT)

public:
    using QObject::QObject;

    // Registers the QML singleton TpuCourse.Sim/Sim (one per engine).
    static void registerSingleton();

    QVariantList chips() const;          // [{id, name}]
    QString defaultChip() const { return QStringLiteral("v5e"); }

    // Every figure of a chip: [{group, label, fact: {...}}]
    Q_INVOKABLE QVariantList chipSheet(const QString &chipId) const;
    // The bench rows of a chip: the landing three, or the full bench.
    // [{id, group, label, shapes, dtype, roofline: {...}}]
    Q_INVOKABLE QVariantList bench(const QString &chipId, bool full) const;
};
