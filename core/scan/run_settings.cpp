// SPDX-License-Identifier: MIT
#include "run_settings.h"

#include "text_util.h"

#include <cstring>

namespace rankscope {

namespace {

constexpr std::string_view kPrefixes[] = { "NCCL_", "RCCL_", "TORCH_", "PYTORCH_", "CUDA_", "GLOO_", "FI_",
    "UCX_", "HSA_", "HIP_", "NVSHMEM_", "HCCL_", "AMD_", "MASTER_" };

bool isNameChar(char c)
{
    return (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_';
}

bool knownPrefix(std::string_view name)
{
    for (const std::string_view p : kPrefixes) {
        if (startsWith(name, p) && name.size() > p.size())
            return true;
    }
    return false;
}

QString fromBytes(std::string_view s)
{
    return QString::fromUtf8(s.data(), static_cast<qsizetype>(s.size()));
}

// "NAME=VALUE" at the start of `s`: its length, 0 when `s` starts with none.
size_t readAssignment(std::string_view s, std::string_view& name, std::string_view& value)
{
    size_t pos = 0;
    while (pos < s.size() && pos < 64 && isNameChar(s[pos]))
        ++pos;
    if (pos == 0 || pos >= s.size() || s[pos] != '=' || !(s[0] >= 'A' && s[0] <= 'Z'))
        return 0;
    name = s.substr(0, pos);
    size_t end = pos + 1;
    const char quote = end < s.size() && (s[end] == '"' || s[end] == '\'') ? s[end] : '\0';
    if (quote) {
        const size_t close = s.find(quote, end + 1);
        if (close == std::string_view::npos)
            return 0;
        value = s.substr(end + 1, close - end - 1);
        return close + 1;
    }
    while (end < s.size() && s[end] != ' ' && s[end] != '\t' && s[end] != ';')
        ++end;
    value = s.substr(pos + 1, end - pos - 1);
    return end;
}

// The command after a shell prompt: "$ ", "# ", "user@host:/path$ ", "(env) root@h:~# ".
std::string_view afterPrompt(std::string_view m)
{
    if (m.size() > 2 && (m[0] == '$' || m[0] == '#') && m[1] == ' ')
        return m.substr(2);
    const std::string_view head = m.substr(0, 160);
    if (!std::memchr(head.data(), '@', std::min<size_t>(head.size(), 64)))
        return m;
    for (const std::string_view end : { std::string_view("$ "), std::string_view("# ") }) {
        const size_t at = head.find(end);
        if (at != std::string_view::npos && at > 0 && head.substr(0, at).find('@') != std::string_view::npos)
            return m.substr(at + 2);
    }
    return m;
}

} // namespace

bool readNcclEnvLine(std::string_view message, std::vector<EnvSetting>& out)
{
    constexpr std::string_view kSet = " set by environment to ";
    if (!startsWith(message, "NCCL_") && !startsWith(message, "RCCL_"))
        return false;
    const size_t at = message.find(kSet);
    if (at == std::string_view::npos || at > 64)
        return false;
    std::string_view value = message.substr(at + kSet.size());
    while (!value.empty() && (value.back() == '.' || value.back() == ' '))
        value.remove_suffix(1);
    if (value.empty())
        return false;
    out.push_back({ fromBytes(message.substr(0, at)), fromBytes(value), -1, 0 });
    return true;
}

void readShellAssignments(std::string_view message, std::vector<EnvSetting>& out)
{
    std::string_view s = trimLeft(message);
    if (s.empty())
        return;
    const char first = s[0];
    if (!(first >= 'A' && first <= 'Z') && first != 'e' && first != '$' && first != '#' && first != '('
        && !std::memchr(s.data(), '@', std::min<size_t>(s.size(), 64)))
        return;
    s = afterPrompt(s);
    for (const std::string_view word : { "export ", "env ", "sudo " }) {
        if (startsWith(s, word))
            s = trimLeft(s.substr(word.size()));
    }
    std::string_view name, value;
    while (const size_t length = readAssignment(s, name, value)) {
        if (knownPrefix(name) && !value.empty())
            out.push_back({ fromBytes(name), fromBytes(value), -1, 0 });
        s = trimLeft(s.substr(length));
    }
}

} // namespace rankscope
