// SPDX-License-Identifier: MIT
// The answer to "did the fix work?": a PASS, FAIL or INCONCLUSIVE banner with the reason, what happened to
// each signature, and the evidence the verdict rests on; a paragraph says what the panel does and a button
// starts it.
#pragma once

#include "verify_fix.h"

#include <QWidget>

class QLabel;
class QListWidget;
class QPushButton;
class QTableWidget;

namespace rankscope {

class VerifyView : public QWidget
{
    Q_OBJECT
public:
    explicit VerifyView(QWidget* parent = nullptr);

    void setResult(const VerifyResult& result);
    void clear();

    QLabel* banner() const { return m_banner; }
    QTableWidget* outcomesTable() const { return m_table; }
    QListWidget* evidenceList() const { return m_evidence; }
    QPushButton* verifyButton() const { return m_verify; }

Q_SIGNALS:
    void verifyRequested(); // the panel's button: pick the run after the fix

protected:
    void changeEvent(QEvent* event) override;

private:
    void paintBanner();

    QLabel* m_explain = nullptr;
    QPushButton* m_verify = nullptr;
    QLabel* m_banner = nullptr;
    QTableWidget* m_table = nullptr;
    QListWidget* m_evidence = nullptr;
    int m_tone = -1; // the banner's Tone, -1 when nothing is verified
};

} // namespace rankscope
