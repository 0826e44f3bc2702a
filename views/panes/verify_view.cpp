// SPDX-License-Identifier: MIT
#include "verify_view.h"

#include "severity_palette.h"

#include <QEvent>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QListWidget>
#include <QPushButton>
#include <QTableWidget>
#include <QVBoxLayout>

namespace rankscope {

namespace {

QString ranks(const std::vector<int>& v)
{
    return v.empty() ? QStringLiteral("—") : verifyRanksText(v);
}

} // namespace

VerifyView::VerifyView(QWidget* parent)
    : QWidget(parent)
{
    m_explain = new QLabel(
        tr("Verify Fix compares this failing run with a run made after applying the fix. It says PASS only "
           "when the initiating signature is gone from every rank and the new run got past the step where "
           "this one failed; FAIL when the signature is still there, a new cause appeared, or the job "
           "stopped earlier; and INCONCLUSIVE, with the reason, when the signature is gone but nothing "
           "shows the new run got as far (for example it printed no training step)."),
        this);
    m_explain->setWordWrap(true);
    m_explain->setObjectName(QStringLiteral("verifyExplanation"));
    m_verify = new QPushButton(tr("Verify Fix With…"), this);
    m_verify->setObjectName(QStringLiteral("verifyStart"));
    connect(m_verify, &QPushButton::clicked, this, &VerifyView::verifyRequested);
    auto* top = new QHBoxLayout;
    top->addWidget(m_explain, 1);
    top->addWidget(m_verify, 0, Qt::AlignTop);
    m_banner = new QLabel(this);
    m_banner->setObjectName(QStringLiteral("verifyBanner"));
    m_banner->setAlignment(Qt::AlignCenter);
    m_banner->setWordWrap(true);
    m_banner->setMargin(8);
    m_table = new QTableWidget(0, 4, this);
    m_table->setHorizontalHeaderLabels(
        { tr("Signature"), tr("Outcome"), tr("Ranks before"), tr("Ranks after") });
    m_table->horizontalHeader()->setSectionResizeMode(0, QHeaderView::Stretch);
    m_table->verticalHeader()->hide();
    m_table->setEditTriggers(QAbstractItemView::NoEditTriggers);
    m_table->setSelectionBehavior(QAbstractItemView::SelectRows);
    m_table->setTextElideMode(Qt::ElideMiddle);
    m_evidence = new QListWidget(this);
    m_evidence->setWordWrap(true);
    auto* layout = new QVBoxLayout(this);
    layout->addLayout(top);
    layout->addWidget(m_banner);
    layout->addWidget(m_table, 2);
    layout->addWidget(m_evidence, 1);
    clear();
}

void VerifyView::clear()
{
    m_banner->setText(tr("No fix verified yet."));
    m_tone = -1;
    paintBanner();
    m_table->setRowCount(0);
    m_evidence->clear();
}

void VerifyView::paintBanner()
{
    if (m_tone < 0) {
        m_banner->setStyleSheet(QString());
        return;
    }
    const ColorPair c = toneColors(static_cast<Tone>(m_tone), palette());
    m_banner->setStyleSheet(QStringLiteral("QLabel{background:%1;color:%2;font-weight:bold;}")
                                .arg(c.background.name(), c.text.name()));
}

void VerifyView::changeEvent(QEvent* event)
{
    if (event->type() == QEvent::PaletteChange)
        paintBanner(); // another theme: the verdict's colours follow
    QWidget::changeEvent(event);
}

void VerifyView::setResult(const VerifyResult& r)
{
    clear();
    const QString why = r.reason.isEmpty() ? QString() : QStringLiteral("\n") + r.reason;
    if (r.pass)
        m_banner->setText(tr("PASS — the fix removed the initiating signature") + why);
    else if (r.inconclusive)
        m_banner->setText(tr("INCONCLUSIVE — the signature is gone, but the fix is not proven") + why);
    else
        m_banner->setText(tr("FAIL — the fix is not verified") + why);
    m_tone = static_cast<int>(r.pass ? Tone::Healthy : r.inconclusive ? Tone::Unsure : Tone::Failure);
    paintBanner();
    m_table->setRowCount(static_cast<int>(r.outcomes.size()));
    for (size_t i = 0; i < r.outcomes.size(); ++i) {
        const SignatureOutcome& o = r.outcomes[i];
        const int row = static_cast<int>(i);
        auto* id = new QTableWidgetItem(o.initiating ? tr("%1 (initiating)").arg(o.id) : o.id);
        id->setToolTip(o.title);
        m_table->setItem(row, 0, id);
        m_table->setItem(row, 1, new QTableWidgetItem(outcomeName(o.kind)));
        m_table->setItem(row, 2, new QTableWidgetItem(ranks(o.ranksBefore)));
        m_table->setItem(row, 3, new QTableWidgetItem(ranks(o.ranksAfter)));
    }
    m_evidence->addItems(r.evidence);
    const auto orUnknown = [](const QString& s) { return s.isEmpty() ? tr("not logged") : s; };
    m_evidence->addItem(
        tr("Last step: %1 before, %2 after").arg(orUnknown(r.lastStepBefore), orUnknown(r.lastStepAfter)));
    const auto seq = [](qint64 v) { return v >= 0 ? QString::number(v) : tr("not logged"); };
    m_evidence->addItem(
        tr("Last SeqNum: %1 before, %2 after").arg(seq(r.lastSeqBefore), seq(r.lastSeqAfter)));
}

} // namespace rankscope
