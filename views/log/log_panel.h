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
    void setFileLabel(const QString& text); // plain text, elided in the middle so the file name stays
    QString fileLabel() const; // the whole text
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
    QString m_fileText;
};

} // namespace rankscope
