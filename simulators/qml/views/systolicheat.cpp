#include "systolicheat.h"
#include "watchedmodel.h"

#include <QImage>
#include <QPainter>

#include <algorithm>
#include <cmath>

SystolicHeat::SystolicHeat(QQuickItem *parent) : QQuickPaintedItem(parent)
{
    connect(this, &SystolicHeat::look, this, [this] { update(); });
}

void SystolicHeat::setModel(SystolicModel *model)
{
    if (!simqml::watchModel(this, m_model, model, [this](SystolicModel *m) {
            connect(m, &SystolicModel::frameChanged, this, [this] { update(); });
            connect(m, &SystolicModel::runChanged, this, [this] { update(); });
        }))
        return;
    emit modelChanged();
    update();
}

void SystolicHeat::paint(QPainter *painter)
{
    const qreal side = std::min(width(), height());
    const SystolicModel *model = m_model.data();
    if (model == nullptr || !model->valid() || side <= 0)
        return;
    const int s = model->array();
    QImage image(s, s, QImage::Format_RGB32);
    const QRgb idle = m_idle.rgb();
    if (m_view == QStringLiteral("run")) {
        const std::vector<std::int64_t> &work = model->work();
        const std::int64_t most = work.empty() ? 0 : *std::max_element(work.begin(), work.end());
        for (int r = 0; r < s; ++r) {
            QRgb *line = reinterpret_cast<QRgb *>(image.scanLine(r));
            for (int c = 0; c < s; ++c) {
                const double f = most > 0 ? static_cast<double>(work[static_cast<std::size_t>(r * s + c)]) /
                                                static_cast<double>(most)
                                          : 0.0;
                const auto mix = [f](int a, int b) { return static_cast<int>(std::lround(a + (b - a) * f)); };
                line[c] = qRgb(mix(m_idle.red(), m_useful.red()), mix(m_idle.green(), m_useful.green()),
                               mix(m_idle.blue(), m_useful.blue()));
            }
        }
    } else {
        const std::vector<std::uint8_t> &cells = model->cells();
        const QRgb colours[4] = {idle, m_loading.rgb(), m_useful.rgb(), m_padding.rgb()};
        for (int r = 0; r < s; ++r) {
            QRgb *line = reinterpret_cast<QRgb *>(image.scanLine(r));
            for (int c = 0; c < s; ++c) {
                const std::size_t i = static_cast<std::size_t>(r * s + c);
                line[c] = i < cells.size() ? colours[cells[i] & 3] : idle;
            }
        }
    }
    const QRectF target((width() - side) / 2, (height() - side) / 2, side, side);
    painter->setRenderHint(QPainter::SmoothPixmapTransform, false);
    painter->drawImage(target, image);
    // The corner shown with values, outlined.
    if (m_corner > 0) {
        const qreal cell = side / s;
        QPen pen(m_outline);
        pen.setWidthF(m_outlineWidth);
        painter->setPen(pen);
        painter->setBrush(Qt::NoBrush);
        painter->drawRect(QRectF(target.left(), target.top(), std::max<qreal>(cell * m_corner, 2 * m_outlineWidth),
                                 std::max<qreal>(cell * m_corner, 2 * m_outlineWidth)));
    }
}
