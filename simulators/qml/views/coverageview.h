#pragma once

#include <QtQml/qqmlregistration.h>
#include <QColor>
#include <QPointer>
#include <QQuickPaintedItem>
#include <QString>

class BlockSpecModel;

#include <vector>

// EX·09's coverage map as one picture (type TpuCourse.Sim/CoverageView): a
// cell per output block shown, coloured by how many grid steps write it;
// gaps and races in their own colours, gaps and revisited blocks outlined,
// the count written in the cell when the cell is big enough, and the
// current cell outlined in the focus colour. The cells are read from the
// model (C++ to C++, never through the script engine) once per report, so
// a repaint walks plain structs.
class CoverageView : public QQuickPaintedItem
{
    Q_OBJECT
    QML_ELEMENT
    Q_PROPERTY(BlockSpecModel *source READ source WRITE setSource NOTIFY sourceChanged)
    Q_PROPERTY(int cellCount READ cellCount NOTIFY cellsChanged)
    Q_PROPERTY(qreal cell MEMBER m_cell NOTIFY look)               // a cell's side, in item pixels
    Q_PROPERTY(int current MEMBER m_current NOTIFY currentChanged) // outlined; out of range: none
    Q_PROPERTY(QColor missingColor MEMBER m_missing NOTIFY look)
    Q_PROPERTY(QColor raceColor MEMBER m_race NOTIFY look)
    Q_PROPERTY(QColor writeColor MEMBER m_write NOTIFY look) // its alpha is set by the write count
    Q_PROPERTY(QColor outlineColor MEMBER m_outline NOTIFY look)
    Q_PROPERTY(QColor textColor MEMBER m_text NOTIFY look)
    Q_PROPERTY(QColor raceTextColor MEMBER m_raceText NOTIFY look)
    Q_PROPERTY(QColor focusColor MEMBER m_focus NOTIFY look)
    Q_PROPERTY(qreal textMinCell MEMBER m_textMinCell NOTIFY look) // smaller cells go without counts
    Q_PROPERTY(QString fontFamily MEMBER m_font NOTIFY look)
    Q_PROPERTY(int fontPixelSize MEMBER m_fontSize NOTIFY look)

public:
    explicit CoverageView(QQuickItem *parent = nullptr);
    BlockSpecModel *source() const { return m_source; }
    void setSource(BlockSpecModel *source);
    int cellCount() const { return static_cast<int>(m_cells.size()); }
    void paint(QPainter *painter) override;

signals:
    void sourceChanged();
    void cellsChanged();
    void currentChanged();
    void look();

private:
    struct Cell
    {
        int row = 0, col = 0;
        int writes = 0;
        bool missing = false, race = false, scattered = false;
    };

    void readCells();

    QPointer<BlockSpecModel> m_source;
    std::vector<Cell> m_cells;
    int m_maxWrites = 1;
    qreal m_cell = 0;
    int m_current = -1;
    QColor m_missing, m_race, m_write, m_outline, m_text, m_raceText, m_focus;
    qreal m_textMinCell = 22;
    QString m_font;
    int m_fontSize = 10;
};
