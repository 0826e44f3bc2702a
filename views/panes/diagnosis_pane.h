// SPDX-License-Identifier: MIT
// The answer pane: headline, fix and verification side by side (commands monospace, selectable, each
// with a copy button), the checklist (state kept per incident), evidence, collateral and hypotheses.
#pragma once

#include "diagnosis.h"
#include "fix_render.h"
#include "log_model.h"
#include "signature_catalog.h"

#include <QPointer>
#include <QScrollArea>

class QVBoxLayout;
class QPlainTextEdit;

namespace rankscope {

class TextBlock;

class DiagnosisPane : public QScrollArea
{
    Q_OBJECT
public:
    explicit DiagnosisPane(QWidget* parent = nullptr);
    ~DiagnosisPane() override;

    // The three objects must outlive the pane's use of them (until the next call or clear()).
    void setDiagnosis(const Incident* incident, const Diagnosis* diagnosis, const Catalog* catalog);
    void clear();
    // The launcher and framework the typed fix actions are written for, from the next setDiagnosis on
    // (empty: torchrun and plain PyTorch).
    void setFixIdiom(const FixIdiom& idiom);

    QString headlineText() const;
    QString fixText() const;
    QStringList verifyCommands() const;
    int checklistCount() const;
    // Each shown action as "kind (idiom): reason" followed by its text.
    QStringList actionTexts() const;
    // The Evidence box (objectName "evidence") of the newest diagnosis, null when it has none. It is built
    // off screen and shown two frames after setDiagnosis(); only then is it a child of the pane.
    QPlainTextEdit* evidenceView() const;

protected:
    void changeEvent(QEvent* event) override;

Q_SIGNALS:
    void eventActivated(int eventIndex); // a link to an event (initiating, first collateral) was clicked
    void signatureActivated(const QString& id); // a hypothesis's signature id was clicked: open the hub

private:
    QWidget* section(const QString& title, QWidget* body);
    QWidget* commandList(const QStringList& commands);
    QWidget* fixBody(const QString& fix);
    QWidget* checklist(const QStringList& items, const QString& key);
    // The actions in the job's idiom; each that another launcher or framework writes differently has a
    // button that shows those ways too.
    QWidget* actionList(const std::vector<FixAction>& actions, const RenderContext& context);
    TextBlock* richLabel(const QString& html); // selectable, links go to onLink
    TextBlock* plainLabel(const QString& text);
    void beginContent();
    void endContent();
    void sizePending();
    void measurePending();
    void showPending();
    void placePending();
    void onLink(const QString& link);

    QWidget* m_content = nullptr; // the newest content, shown or pending
    QWidget* m_pending = nullptr; // built, not parented yet: sized, then shown on later turns
    bool m_pendingSized = false; // m_pending has its size for the pane's width
    bool m_pendingScrolls = false; // and it needs the vertical scroll bar
    QVBoxLayout* m_layout = nullptr;
    TextBlock* m_headline = nullptr;
    QPointer<QPlainTextEdit> m_evidence;
    QPointer<TextBlock> m_confidence; // the badge, recoloured when the theme changes
    QString m_confidenceLevel, m_confidenceReasons;
    QString m_fix;
    QStringList m_verify;
    int m_checklist = 0;
    FixIdiom m_idiom;
    QStringList m_actions;
};

// A stable key for per-incident state (checklist ticks): the files and the initiating line.
QString incidentKey(const Incident& incident, const Diagnosis& diagnosis);

} // namespace rankscope
