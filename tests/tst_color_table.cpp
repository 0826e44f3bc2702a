// SPDX-License-Identifier: MIT
// The one colour table (views/widgets/severity_palette): every colour of the window that is not the
// palette's own comes from it, in a light and a dark variant. Checked two ways: each entry's variants
// differ and read on the theme's Base (3:1 for marks and lines, 4.5:1 for text on a badge), and no file of
// views/ outside the table and the theme's palette writes a colour literal of its own.
#include "severity_palette.h"

#include <QDirIterator>
#include <QFile>
#include <QRegularExpression>
#include <QtTest>
#include <cmath>

using namespace rankscope;

namespace {

double luminance(const QColor& c)
{
    const auto lin = [](double s) { return s <= 0.03928 ? s / 12.92 : std::pow((s + 0.055) / 1.055, 2.4); };
    return 0.2126 * lin(c.redF()) + 0.7152 * lin(c.greenF()) + 0.0722 * lin(c.blueF());
}

double contrast(const QColor& a, const QColor& b)
{
    const double la = luminance(a), lb = luminance(b);
    return (std::max(la, lb) + 0.05) / (std::min(la, lb) + 0.05);
}

QPalette themePalette(bool dark)
{
    QPalette p;
    const QColor window = dark ? QColor(0x26, 0x29, 0x2e) : QColor(0xef, 0xef, 0xef);
    const QColor base = dark ? QColor(0x1c, 0x1e, 0x22) : QColor(Qt::white);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::Text, dark ? QColor(0xe6, 0xe8, 0xeb) : QColor(Qt::black));
    return p;
}

} // namespace

class TestColorTable : public QObject
{
    Q_OBJECT
private Q_SLOTS:
    void variantsDifferAndRead_data()
    {
        QTest::addColumn<int>("entry");
        const char* names[] = { "initiating", "SYS path", "direct link", "switch link", "host bridge link",
            "node link", "GPU box", "NIC box", "collateral" };
        for (int i = 0; i < 9; ++i)
            QTest::newRow(names[i]) << i;
    }

    void variantsDifferAndRead()
    {
        QFETCH(int, entry);
        const auto colorOf = [entry](const QPalette& p) -> QColor {
            switch (entry) {
            case 0:
                return initiatingColor(p);
            case 1:
                return sysPathColor(p);
            case 2:
                return linkColor(LinkTone::Direct, p);
            case 3:
                return linkColor(LinkTone::Switch, p);
            case 4:
                return linkColor(LinkTone::HostBridge, p);
            case 5:
                return linkColor(LinkTone::Node, p);
            case 6:
                return deviceColor(DeviceTone::Gpu, p);
            case 7:
                return deviceColor(DeviceTone::Nic, p);
            default:
                return collateralColor(p);
            }
        };
        const QPalette light = themePalette(false), dark = themePalette(true);
        QVERIFY(colorOf(light) != colorOf(dark));
        const bool tint = entry == 6 || entry == 7; // mixed a tenth into Base for a box's fill
        for (const QPalette& p : { light, dark }) {
            if (tint)
                continue;
            const double c = contrast(colorOf(p), p.color(QPalette::Base));
            QVERIFY2(c >= 3.0,
                qPrintable(QStringLiteral("%1 on %2: %3")
                               .arg(colorOf(p).name(), p.color(QPalette::Base).name())
                               .arg(c)));
        }
        QCOMPARE(linkColor(LinkTone::Sys, dark), sysPathColor(dark));
    }

    // The initiating badge (the timeline's marker label, the "suspect" badge): its text reads on its fill.
    void initiatingBadgeReads()
    {
        for (bool dark : { false, true }) {
            const ColorPair badge = initiatingBadge(themePalette(dark));
            QCOMPARE(badge.background, initiatingColor(themePalette(dark)));
            QVERIFY2(contrast(badge.text, badge.background) >= 4.5,
                qPrintable(QString::number(contrast(badge.text, badge.background))));
        }
    }

    // No colour literal in views/ outside the table and the theme's palettes: a QColor built from
    // numbers, a named Qt colour or a "#rrggbb" string is a colour without a dark (or light) variant.
    void noStrayColours()
    {
        const QRegularExpression literal(QStringLiteral(
            R"(QColor\(\s*(0x|\d)|Qt::(white|black|red|green|blue|yellow|gray|darkGray|lightGray)\b|"#[0-9a-fA-F]{6}")"));
        QStringList strays;
        QDirIterator it(QStringLiteral(RANKSCOPE_SOURCE_DIR "/views"),
            { QStringLiteral("*.cpp"), QStringLiteral("*.h") }, QDir::Files, QDirIterator::Subdirectories);
        int files = 0;
        while (it.hasNext()) {
            const QString path = it.next();
            if (path.endsWith(QLatin1String("/severity_palette.cpp"))
                || path.endsWith(QLatin1String("/theme.cpp")))
                continue;
            QFile f(path);
            QVERIFY(f.open(QIODevice::ReadOnly));
            ++files;
            const QStringList lines = QString::fromUtf8(f.readAll()).split(QLatin1Char('\n'));
            for (qsizetype i = 0; i < lines.size(); ++i)
                if (lines[i].contains(literal) && !lines[i].trimmed().startsWith(QLatin1String("//")))
                    strays << QStringLiteral("%1:%2: %3").arg(path).arg(i + 1).arg(lines[i].trimmed());
        }
        QVERIFY(files > 20);
        QVERIFY2(strays.isEmpty(), qPrintable(strays.join(QLatin1Char('\n'))));
    }
};

QTEST_MAIN(TestColorTable)
#include "tst_color_table.moc"
