// SPDX-License-Identifier: MIT
#include "theme.h"

#include <QApplication>
#include <QEvent>
#include <QPainter>
#include <QPalette>
#include <QProxyStyle>
#include <QSettings>
#include <QStyle>
#include <QStyleFactory>
#include <QStyleOption>

namespace rankscope {

namespace {

const QString kKey = QStringLiteral("view/theme");

// The palette the application started with, taken before the first change.
const QPalette& originalPalette()
{
    static const QPalette p = QApplication::palette();
    return p;
}

// Fusion draws a check box's frame a shade darker than the window: 1.9:1 against a light window, less in
// a dark one, so the boxes nearly vanished. The themes draw a frame halfway between the window and its
// text over it (above 3:1 in both), the least a control needs to be seen.
class ThemeStyle : public QProxyStyle
{
public:
    ThemeStyle()
        : QProxyStyle(QStyleFactory::create(QStringLiteral("Fusion")))
    {
    }
    // System keeps this style with the frame off: it then draws exactly as Fusion, and a switch of theme
    // is a palette change only. Changing the style repolishes every widget: on the 1,024-rank incident a
    // switch took 31 ms of the UI thread that way, 14 ms without.
    void setFramed(bool framed) { m_framed = framed; }
    void drawPrimitive(PrimitiveElement element, const QStyleOption* option, QPainter* painter,
        const QWidget* widget) const override
    {
        QProxyStyle::drawPrimitive(element, option, painter, widget);
        if (element != PE_IndicatorCheckBox || !m_framed)
            return;
        const QColor text = option->palette.color(QPalette::WindowText);
        const QColor window = option->palette.color(QPalette::Window);
        const QColor frame((text.red() + window.red()) / 2, (text.green() + window.green()) / 2,
            (text.blue() + window.blue()) / 2);
        painter->save();
        painter->setRenderHint(QPainter::Antialiasing, false);
        painter->setPen(QPen(frame, 1));
        painter->setBrush(Qt::NoBrush);
        painter->drawRect(option->rect.adjusted(0, 0, -1, -1));
        painter->restore();
    }

private:
    bool m_framed = true;
};

// The application's ThemeStyle, installed when it is not yet.
ThemeStyle* themeStyle()
{
    if (auto* style = dynamic_cast<ThemeStyle*>(QApplication::style()))
        return style;
    auto* style = new ThemeStyle;
    QApplication::setStyle(style); // the application owns it
    return style;
}

QPalette darkPalette()
{
    QPalette p;
    const QColor window(0x26, 0x29, 0x2e), base(0x1c, 0x1e, 0x22), text(0xe6, 0xe8, 0xeb);
    const QColor disabled(0x7d, 0x83, 0x8c), highlight(0x2f, 0x6f, 0xb8);
    p.setColor(QPalette::Window, window);
    p.setColor(QPalette::WindowText, text);
    p.setColor(QPalette::Base, base);
    p.setColor(QPalette::AlternateBase, QColor(0x24, 0x27, 0x2c));
    p.setColor(QPalette::ToolTipBase, QColor(0x33, 0x37, 0x3d));
    p.setColor(QPalette::ToolTipText, text);
    p.setColor(QPalette::PlaceholderText, QColor(0x9a, 0xa0, 0xa8));
    p.setColor(QPalette::Text, text);
    p.setColor(QPalette::Button, QColor(0x31, 0x35, 0x3b));
    p.setColor(QPalette::ButtonText, text);
    p.setColor(QPalette::BrightText, QColor(0xff, 0x6b, 0x6b));
    p.setColor(QPalette::Light, QColor(0x44, 0x49, 0x50));
    p.setColor(QPalette::Midlight, QColor(0x3a, 0x3e, 0x45));
    p.setColor(QPalette::Mid, QColor(0x5a, 0x60, 0x68)); // check box frames stay visible on Base
    p.setColor(QPalette::Dark, QColor(0x14, 0x15, 0x18));
    p.setColor(QPalette::Shadow, Qt::black);
    p.setColor(QPalette::Highlight, highlight);
    p.setColor(QPalette::HighlightedText, Qt::white);
    p.setColor(QPalette::Link, QColor(0x7c, 0xb7, 0xff));
    p.setColor(QPalette::LinkVisited, QColor(0xc3, 0x9b, 0xff));
    for (QPalette::ColorRole role : { QPalette::WindowText, QPalette::Text, QPalette::ButtonText })
        p.setColor(QPalette::Disabled, role, disabled);
    return p;
}

// Fusion's own, with a deeper selection: its highlight (#308cc6) under white text is 3.7:1, and the
// Log view shows the line it opens at selected. #2a6aa8 is 5.6:1.
QPalette lightPalette(QPalette p)
{
    p.setColor(QPalette::Highlight, QColor(0x2a, 0x6a, 0xa8));
    p.setColor(QPalette::HighlightedText, Qt::white);
    return p;
}

} // namespace

QString themeName(Theme theme)
{
    switch (theme) {
    case Theme::System:
        return QStringLiteral("system");
    case Theme::Light:
        return QStringLiteral("light");
    case Theme::Dark:
        return QStringLiteral("dark");
    }
    return {};
}

std::optional<Theme> themeFromName(const QString& name)
{
    for (Theme t : { Theme::System, Theme::Light, Theme::Dark })
        if (name.compare(themeName(t), Qt::CaseInsensitive) == 0)
            return t;
    return std::nullopt;
}

void applyTheme(Theme theme)
{
    const QPalette& system = originalPalette();
    // One style for every theme, installed once: a switch is a palette change only. Setting a style
    // repolishes every widget: on a Windows-style desktop, switching between System (the system style
    // put back) and Dark or Light took 78 ms (median) on the 1,024-rank incident, 32 ms now. System is
    // the system's palette on Fusion's drawing, which follows any palette, with the check box frame off.
    ThemeStyle* style = themeStyle();
    style->setFramed(theme != Theme::System);
    if (theme == Theme::System)
        QApplication::setPalette(system);
    else
        QApplication::setPalette(
            theme == Theme::Dark ? darkPalette() : lightPalette(style->standardPalette()));
    // Qt posts the palette change to the widgets: until the event loop came round, every widget kept the
    // old colours (the window's palette was still light right after a switch to Dark, and a screenshot
    // taken then showed the old theme). Delivered now, the colours follow the switch at once.
    QCoreApplication::sendPostedEvents(nullptr, QEvent::ApplicationPaletteChange);
}

Theme savedTheme()
{
    return themeFromName(QSettings().value(kKey).toString()).value_or(Theme::System);
}

void saveTheme(Theme theme)
{
    QSettings().setValue(kKey, themeName(theme));
}

} // namespace rankscope
