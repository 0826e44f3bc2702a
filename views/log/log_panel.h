// SPDX-License-Identifier: MIT
// The log view with its controls: file label, regex search with next/previous, WARN+ filter, go to line.
#pragma once

#include <QWidget>

class QLabel;
class QLineEdit;
class QCheckBox;

namespace rankscope {

class LogView;

class LogPanel : public QWidget
{
    Q_OBJECT
public:
    explicit LogPanel(QWidget* parent = nullptr);
    LogView* view() const { return m_view; }
    // "PATH · WHERE" (WHERE is "line 32 · rank 7 · gpu-a02 · pid 52117"): when it does not fit, the path
    // is elided in the middle first (its file name stays), and WHERE keeps its start, the line and rank.
    void setFileLabel(const QString& path, const QString& where = {});
    QString fileLabel() const; // the whole text
    QString shownFileLabel() const; // as shown, elided
    QString searchMessage() const;

protected:
    void resizeEvent(QResizeEvent* event) override;

private:
    void search(bool forward);
    void elideFileLabel();

    LogView* m_view = nullptr;
    QLabel* m_file = nullptr;
    QLineEdit* m_search = nullptr;
    QLineEdit* m_line = nullptr;
    QCheckBox* m_warnOnly = nullptr;
    QLabel* m_message = nullptr;
    QString m_path, m_where;
};

} // namespace rankscope
