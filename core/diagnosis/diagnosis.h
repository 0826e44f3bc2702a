// SPDX-License-Identifier: MIT
// The answer: which rank failed first and why, what else is collateral, who hung, how sure we are,
// and the fix and verification filled in with the incident's own hosts, ranks, devices and paths.
#pragma once

#include "diagnosis_types.h"

namespace rankscope {

struct DiagnoseOptions
{
    int evidenceLines = 100;
    QStringList extraFixLines; // e.g. a per-local-rank NCCL_IB_HCA mapping from the topology
};

Diagnosis diagnose(const Incident& incident, const Catalog& catalog, const DiagnoseOptions& options = {});

// The suspects for people: ranks with the same reason share a line ("ranks 0-6 (gpu-a01): printed no
// error while ..."), in the order the reasons first appear.
QStringList suspectLines(const std::vector<Suspect>& suspects);

// Who a collateral group is, as every report and the window name it: "3 rank(s) [0-2]" for ranks,
// "launcher (no rank)" for a launcher's lines, "pid 9821 on H100-1 (no rank)" for other lines.
QString collateralWho(const CollateralGroup& group);
// The heading of the collateral list: it says so when the initiating process's own follow-up is in it.
QString collateralHeading(const std::vector<CollateralGroup>& groups);

// Whether a signature's lines are a launcher's own (families "launcher" and "torchrun": srun, mpirun,
// the DeepSpeed launcher, torchrun's elastic agent).
bool isLauncherFamily(const QString& family);

} // namespace rankscope
