#pragma once
// The ops of every imported profile, indexed by program and instruction:
// what EX05 asks on each hover ("did a profile time this kernel?"). Built
// from the store once, and again only when the set of imports changes, so
// a hover costs one lookup rather than a read of every profile.
#include <QHash>
#include <QSet>
#include <QString>
#include <QVariantMap>

#include <cstdint>
#include <vector>

namespace progress {
class Store;
}

class ProfiledOps
{
public:
    explicit ProfiledOps(progress::Store &store) : m_store(store) {}

    // The newest import's device time of `instruction` in `program`:
    // {meanS, time, occurrences, device, deviceType, chip, file, date,
    // details}; empty when no profile ran it.
    QVariantMap find(const QString &program, const QString &instruction);
    // Whether any imported profile ran `program`.
    bool ran(const QString &program);

private:
    void refresh();

    progress::Store &m_store;
    std::vector<std::int64_t> m_imports; // the import ids the index was built from
    bool m_built = false;
    QHash<QString, QVariantMap> m_byOp; // "program\ninstruction" -> its entry
    QSet<QString> m_programs;
};
