// SPDX-License-Identifier: MIT
#include "setup_facts.h"

#include "text_util.h"

namespace rankscope {

namespace {

QString text(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size())).trimmed();
}

// The network plugin NCCL loaded or fell back from. Wordings since NCCL 2.4: "NET/Plugin : No plugin found
// (libnccl-net.so), using internal implementation", "NET/Plugin: Could not find: libnccl-net.so. Using
// internal network plugin." (2.19), "... Using internal net plugin." (2.26), "NET/Plugin: Loaded net plugin
// NCCL RDMA Plugin (v6)", "NET/Plugin : Loaded net plugin AWS Libfabric (v7)", "Plugin Path :
// /opt/.../libnccl-net.so".
bool readPlugin(std::string_view m, SetupFact& f)
{
    // What follows the marker names the plugin: a path, or the plugin's own name (NCCL 2.27+ "Successfully
    // loaded external network plugin /path/libnccl-net.so", earlier "Loaded net plugin AWS Libfabric (v7)").
    std::string_view named;
    if (startsWith(m, "Plugin Path : "))
        named = m.substr(14);
    else if (!startsWith(m, "NET/Plugin"))
        return false;
    for (const std::string_view marker :
        { std::string_view("loaded external network plugin "), std::string_view("Loaded net plugin ") }) {
        if (const std::size_t at = m.find(marker); named.empty() && at != std::string_view::npos)
            named = m.substr(at + marker.size());
    }
    if (!named.empty()) {
        f.key = QStringLiteral("network plugin");
        f.value = text(named);
        f.group = QStringLiteral("external");
        return !f.value.isEmpty();
    }
    if (m.find("using internal implementation") != std::string_view::npos
        || m.find("Using internal net")
            != std::string_view::npos // "network plugin" (2.19), "net plugin" (2.26)
        || m.find("No plugin found") != std::string_view::npos) {
        f.key = QStringLiteral("network plugin");
        f.value = QStringLiteral("NCCL's internal network plugin (no libnccl-net.so found)");
        f.group = QStringLiteral("internal");
        return true;
    }
    return false;
}

} // namespace

bool readSetupFact(std::string_view m, SetupFact& f)
{
    if (m.empty() || !mayStartSetupLine(m[0]))
        return false;
    if (startsWith(m, "NCCL version ")) {
        // "NCCL version 2.18.5+cuda12.2": the build, up to the first space (a suffix may follow).
        const std::string_view rest = m.substr(13);
        f.key = QStringLiteral("NCCL version");
        f.value = text(rest.substr(0, rest.find(' ')));
        f.group = f.value;
        return !f.value.isEmpty();
    }
    // "Initialized NET plugin Socket" (2.19+): the sockets are ready, whatever NCCL tried before them.
    if (startsWith(m, "Initialized NET plugin Socket")) {
        f.key = QLatin1String(kSocketTransportFact);
        f.value = QStringLiteral("initialised");
        f.group = f.value;
        return true;
    }
    if (startsWith(m, "Using network ")) {
        f.key = QStringLiteral("network");
        f.value = text(m.substr(14));
        f.group = f.value;
        return !f.value.isEmpty();
    }
    return readPlugin(m, f);
}

} // namespace rankscope
