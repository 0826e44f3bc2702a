// SPDX-License-Identifier: MIT
#include "timeline_axis.h"

#include <QDateTime>
#include <QFontMetrics>
#include <QPainter>
#include <QPalette>
#include <array>
#include <cmath>

namespace rankscope {

qint64 chooseTickStep(qint64 spanMs, int width, int minPixels)
{
    static constexpr std::array<qint64, 24> steps { 1, 2, 5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000,
        10000, 15000, 30000, 60000, 120000, 300000, 600000, 900000, 1800000, 3600000, 7200000, 21600000 };
    const double perPixel = static_cast<double>(qMax<qint64>(spanMs, 1)) / qMax(width, 1);
    for (qint64 s : steps) {
        if (static_cast<double>(s) / perPixel >= minPixels)
            return s;
    }
    qint64 s = 86400000;
    while (static_cast<double>(s) / perPixel < minPixels)
        s *= 2;
    return s;
}

QString formatAxisTime(qint64 ms, qint64 stepMs)
{
    const QDateTime t = QDateTime::fromMSecsSinceEpoch(ms, Qt::UTC);
    if (stepMs < 1000)
        return t.toString(QStringLiteral("HH:mm:ss.zzz"));
    if (stepMs >= 86400000)
        return t.toString(QStringLiteral("MM-dd HH:mm"));
    return t.toString(QStringLiteral("HH:mm:ss"));
}

QString formatOffset(qint64 deltaMs, qint64 stepMs)
{
    // A unit on every part: "+05:00" under a clock time reads as a UTC offset, "+5m" cannot.
    const QChar sign = deltaMs < 0 ? u'-' : u'+';
    const qint64 a = std::abs(deltaMs);
    const qint64 h = a / 3600000, m = (a / 60000) % 60, s = (a / 1000) % 60, frac = a % 1000;
    const bool showMs = stepMs < 1000 || frac != 0;
    const bool showS = showMs || s != 0 || stepMs < 60000 || a < 60000;
    const bool showM = m != 0 || (h > 0 && showS);
    QString out = QString(sign);
    const auto part = [&out](qint64 v, QChar unit, bool first) {
        out += QStringLiteral("%1").arg(v, first ? 1 : 2, 10, QLatin1Char('0'));
        if (!unit.isNull())
            out += unit;
    };
    if (h > 0)
        part(h, u'h', true);
    if (showM)
        part(m, u'm', h == 0);
    if (showS) {
        part(s, showMs ? QChar() : QChar(u's'), h == 0 && !showM);
        if (showMs)
            out += QStringLiteral(".%1s").arg(frac, 3, 10, QLatin1Char('0'));
    }
    return out;
}

void paintTimeAxis(QPainter& painter, const QRect& rect, const TimelineMapping& mapping, qint64 referenceMs,
    const QPalette& palette)
{
    const QFontMetrics fm(painter.font());
    const int line = fm.height();
    painter.fillRect(rect, palette.color(QPalette::Window));
    painter.setPen(palette.color(QPalette::Mid));
    painter.drawLine(rect.left(), rect.bottom(), rect.right(), rect.bottom());
    const int minPixels = fm.horizontalAdvance(QStringLiteral("00:00:00.000")) + fm.averageCharWidth() * 2;
    const qint64 step = chooseTickStep(mapping.span(), mapping.width, minPixels);
    // Ticks are aligned to the reference (offset +0) when there is one, else to whole steps.
    const qint64 origin = referenceMs >= 0 ? referenceMs : 0;
    qint64 t = origin + ((mapping.start - origin) / step) * step;
    if (t < mapping.start)
        t += step;
    for (; t <= mapping.end; t += step) {
        const int x = rect.left() + static_cast<int>(std::floor(mapping.mapTimeToX(t)));
        painter.setPen(palette.color(QPalette::Mid));
        painter.drawLine(x, rect.bottom() - line / 3, x, rect.bottom());
        if (x + 3 + fm.horizontalAdvance(formatAxisTime(t, step)) > rect.right())
            break; // no half-cut labels at the right edge
        painter.setPen(palette.color(QPalette::WindowText));
        painter.drawText(x + 3, rect.top() + fm.ascent() + 2, formatAxisTime(t, step));
        if (referenceMs >= 0) {
            painter.setPen(palette.color(QPalette::PlaceholderText));
            painter.drawText(x + 3, rect.top() + line + fm.ascent() + 2, formatOffset(t - referenceMs, step));
        }
    }
}

qint64 chooseLineStep(qint64 spanLines, int width, int minPixels)
{
    const double perPixel = static_cast<double>(qMax<qint64>(spanLines, 1)) / qMax(width, 1);
    for (qint64 decade = 1;; decade *= 10) {
        for (qint64 m : { 1, 2, 5 }) {
            if (static_cast<double>(m * decade) / perPixel >= minPixels)
                return m * decade;
        }
    }
}

void paintLineAxis(QPainter& painter, const QRect& rect, const TimelineMapping& mapping, qint64 referenceLine,
    const QPalette& palette)
{
    const QFontMetrics fm(painter.font());
    const int line = fm.height();
    painter.fillRect(rect, palette.color(QPalette::Window));
    painter.setPen(palette.color(QPalette::Mid));
    painter.drawLine(rect.left(), rect.bottom(), rect.right(), rect.bottom());
    const int minPixels = fm.horizontalAdvance(QStringLiteral("line 000000")) + fm.averageCharWidth() * 2;
    const qint64 step = chooseLineStep(mapping.span(), mapping.width, minPixels);
    qint64 n = (mapping.start / step) * step;
    if (n < mapping.start)
        n += step;
    for (; n <= mapping.end; n += step) {
        if (n < 1)
            continue; // lines count from 1
        const int x = rect.left() + static_cast<int>(std::floor(mapping.mapTimeToX(n)));
        const QString label = QStringLiteral("line %1").arg(n);
        painter.setPen(palette.color(QPalette::Mid));
        painter.drawLine(x, rect.bottom() - line / 3, x, rect.bottom());
        if (x + 3 + fm.horizontalAdvance(label) > rect.right())
            break;
        painter.setPen(palette.color(QPalette::WindowText));
        painter.drawText(x + 3, rect.top() + fm.ascent() + 2, label);
        if (referenceLine >= 0) {
            painter.setPen(palette.color(QPalette::PlaceholderText));
            const qint64 d = n - referenceLine;
            painter.drawText(x + 3, rect.top() + line + fm.ascent() + 2,
                (d < 0 ? QStringLiteral("%1") : QStringLiteral("+%1")).arg(d) + QStringLiteral(" lines"));
        }
    }
}

} // namespace rankscope
