// SPDX-License-Identifier: MIT
#include "log_panel.h"

#include "log_view.h"

#include <QCheckBox>
#include <QHBoxLayout>
#include <QIntValidator>
#include <QLabel>
#include <QLineEdit>
#include <QToolButton>
#include <QVBoxLayout>
#include <algorithm>

namespace rankscope {

LogPanel::LogPanel(QWidget* parent)
    : QWidget(parent)
{
    auto* v = new QVBoxLayout(this);
    v->setContentsMargins(0, 0, 0, 0);
    v->setSpacing(2);
    auto* bar = new QHBoxLayout;
    bar->setContentsMargins(4, 2, 4, 0);
    m_file = new QLabel;
    m_file->setObjectName(QStringLiteral("logHeader"));
    m_file->setTextFormat(Qt::PlainText);
    m_file->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_file->setMinimumWidth(40);
    m_file->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred); // the layout gives it the rest
    m_search = new QLineEdit;
    m_search->setPlaceholderText(tr("Search (regex)…"));
    m_search->setClearButtonEnabled(true);
    m_search->setMaximumWidth(320);
    auto* prev = new QToolButton;
    prev->setText(tr("◀"));
    prev->setToolTip(tr("Previous match (Shift+F3)"));
    auto* next = new QToolButton;
    next->setText(tr("▶"));
    next->setToolTip(tr("Next match (F3 or Enter)"));
    m_warnOnly = new QCheckBox(tr("WARN+ only"));
    m_line = new QLineEdit;
    m_line->setPlaceholderText(tr("line"));
    m_line->setValidator(new QIntValidator(1, 2'000'000'000, m_line));
    m_line->setMaximumWidth(90);
    m_message = new QLabel;
    bar->addWidget(m_file, 1);
    bar->addWidget(m_message);
    bar->addWidget(m_search);
    bar->addWidget(prev);
    bar->addWidget(next);
    bar->addWidget(m_warnOnly);
    bar->addWidget(new QLabel(tr("Go to:")));
    bar->addWidget(m_line);
    v->addLayout(bar);
    m_view = new LogView;
    v->addWidget(m_view, 1);

    connect(m_search, &QLineEdit::returnPressed, this, [this] { search(true); });
    connect(next, &QToolButton::clicked, this, [this] { search(true); });
    connect(prev, &QToolButton::clicked, this, [this] { search(false); });
    // Whole-file work runs off the UI thread; the message says so until the answer arrives.
    connect(m_warnOnly, &QCheckBox::toggled, this, [this](bool on) {
        if (on)
            m_message->setText(tr("filtering…"));
        m_view->requestWarnOnly(on);
    });
    connect(m_view, &LogView::filterApplied, this, [this] {
        if (m_message->text() == tr("filtering…"))
            m_message->clear();
    });
    connect(m_view, &LogView::findFinished, this,
        [this](qint64 hit) { m_message->setText(hit < 0 ? tr("no match") : QString()); });
    connect(m_view, &LogView::matchCounted, this, [this](qint64 ordinal, qint64 total) {
        m_message->setText(
            ordinal > 0 ? tr("%1 of %2").arg(ordinal).arg(total) : tr("%1 matches").arg(total));
    });
    connect(
        m_line, &QLineEdit::returnPressed, this, [this] { m_view->goToLine(m_line->text().toLongLong()); });
}

void LogPanel::setFileLabel(const QString& path, const QString& where)
{
    m_path = path;
    m_where = where;
    m_file->setToolTip(fileLabel());
    elideFileLabel();
}

QString LogPanel::fileLabel() const
{
    return m_where.isEmpty() ? m_path : m_path + QStringLiteral(" · ") + m_where;
}

QString LogPanel::shownFileLabel() const
{
    return m_file->text();
}

void LogPanel::elideFileLabel()
{
    // Eliding the whole text in the middle took the line number away at a scale factor of 2
    // ("nccl.gpu-a02.52117.log · li…ank 7"). The path gives way first, down to a few characters of its
    // file name; only then does WHERE lose its end (the host and pid before the line and rank).
    const QFontMetrics fm = m_file->fontMetrics();
    const int width = std::max(0, m_file->width());
    if (m_where.isEmpty()) {
        m_file->setText(fm.elidedText(m_path, Qt::ElideMiddle, width));
        return;
    }
    const QString sep = QStringLiteral(" · ");
    const int whereWidth = fm.horizontalAdvance(sep + m_where);
    const int minPath = std::min(fm.horizontalAdvance(m_path), fm.averageCharWidth() * 8);
    const int pathWidth = std::max(width - whereWidth, minPath);
    const QString path = fm.elidedText(m_path, Qt::ElideMiddle, pathWidth);
    const QString where =
        fm.elidedText(m_where, Qt::ElideRight, std::max(0, width - fm.horizontalAdvance(path + sep)));
    m_file->setText(fm.elidedText(path + sep + where, Qt::ElideRight, width)); // a label narrower than that
}

void LogPanel::resizeEvent(QResizeEvent* event)
{
    QWidget::resizeEvent(event);
    elideFileLabel();
}
QString LogPanel::searchMessage() const
{
    return m_message->text();
}

void LogPanel::search(bool forward)
{
    QString error;
    if (m_search->text() != m_view->searchPattern() && !m_view->setSearchPattern(m_search->text(), &error)) {
        m_message->setText(tr("invalid regex: %1").arg(error));
        return;
    }
    m_message->setText(tr("searching…"));
    m_view->startFind(forward ? 1 : -1);
}

} // namespace rankscope
