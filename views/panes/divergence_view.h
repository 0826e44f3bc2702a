// SPDX-License-Identifier: MIT
// Side-by-side diff of the initiating rank's lines before the initiating event (failing run, left) and its
// counterpart in a healthy control run (right), aligned after normalisation. The first differing line is
// highlighted on both sides; lines only in the failing run are marked.
#pragma once

#include "control_compare.h"

#include <QWidget>
#include <vector>

class QLabel;
class QPlainTextEdit;
class QPushButton;

namespace rankscope {

// Where two lines differ: [from, toFailing) of the failing one, [from, toControl) of the control.
struct CharRange
{
    int from = 0;
    int toFailing = 0;
    int toControl = 0;
};
CharRange differingChars(const QString& failing, const QString& control);

class DivergenceView : public QWidget
{
    Q_OBJECT
public:
    explicit DivergenceView(QWidget* parent = nullptr);

    void setDivergence(const Divergence& divergence);
    void clear();

    // For tests and navigation: the block (row) of the first difference, -1 when none, and the rows
    // whose failing line never occurs in the control (marked red on the left). Rows are the same blocks on
    // both sides.
    int highlightedRow() const { return m_highlighted; }
    std::vector<int> onlyFailingRows() const { return m_onlyFailing; }
    QPlainTextEdit* failingEdit() const { return m_left; }
    QPlainTextEdit* controlEdit() const { return m_right; }
    QString headerText() const;
    void scrollToFirstDifference(); // the rows and the differing characters come into view
    CharRange firstDifferenceChars() const { return m_firstChars; }
    int firstDifferenceX() const; // the first differing character's x in the failing side's viewport
    QPushButton* compareButton() const { return m_compare; }

Q_SIGNALS:
    void compareRequested(); // the panel's button: pick a healthy run

private:
    QLabel* m_explain = nullptr;
    QPushButton* m_compare = nullptr;
    CharRange m_firstChars;
    QLabel* m_header = nullptr;
    QPlainTextEdit* m_left = nullptr;
    QPlainTextEdit* m_right = nullptr;
    int m_highlighted = -1;
    std::vector<int> m_onlyFailing;
};

} // namespace rankscope
