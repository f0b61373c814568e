#include "mastery.h"
#include "course.h"

Mastery::Mastery(QObject *parent) : QObject(parent), m_course(Course::create(nullptr, nullptr))
{
    if (m_course)
        connect(m_course, &Course::progressChanged, this, &Mastery::goalsChanged);
}

void Mastery::setPiece(const QString &piece)
{
    if (piece == m_piece)
        return;
    m_piece = piece;
    const auto found = m_course ? m_course->masteryItemOfPiece(piece) : std::pair<int, QString>{0, {}};
    m_chapter = found.first;
    m_item = found.second;
    if (m_course && m_item.isEmpty())
        m_course->reportProblem(QStringLiteral("%1 has no mastery item in its chapter.").arg(piece));
    emit pieceChanged();
    emit goalsChanged();
}

QVariantList Mastery::goals() const
{
    return m_course && !m_item.isEmpty() ? m_course->goalsOf(m_chapter, m_item) : QVariantList{};
}

bool Mastery::reach(const QString &goal)
{
    return m_course && !m_item.isEmpty() && m_course->reachGoal(m_chapter, m_item, goal);
}

bool Mastery::setDone(bool done)
{
    return m_course && !m_item.isEmpty() && m_course->setItemDone(m_chapter, m_item, done);
}
