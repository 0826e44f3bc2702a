// SPDX-License-Identifier: MIT
// The scanner's byte helpers against plain loops: every length to 300 (64-byte steps, 16-byte blocks, a last
// block that overlaps), every position of a difference, and two differences at once.
#include "byte_compare.h"

#include <QTest>
#include <string>

using namespace rankscope;

namespace {

DifferenceSpan reference(const std::string& a, const std::string& b)
{
    std::size_t first = 0;
    while (first < a.size() && a[first] == b[first])
        ++first;
    if (first == a.size())
        return { a.size(), a.size() };
    std::size_t end = a.size();
    while (a[end - 1] == b[end - 1])
        --end;
    return { first, end };
}

} // namespace

class TestByteCompare : public QObject
{
    Q_OBJECT

private Q_SLOTS:
    void differenceSpanMatchesALoop()
    {
        int checked = 0;
        for (std::size_t n = 0; n <= 300; ++n) {
            std::string a(n, 'a');
            for (std::size_t k = 0; k < n; ++k)
                a[k] = static_cast<char>('a' + k % 23);
            const DifferenceSpan same = differenceSpan(a.data(), a.data(), n);
            QCOMPARE(same.first, n);
            QCOMPARE(same.end, n);
            for (std::size_t i = 0; i < n; ++i) {
                for (const std::size_t j : { i, i + 1, i + 17, n - 1 }) {
                    if (j >= n || j < i)
                        continue;
                    std::string b = a;
                    b[i] = static_cast<char>(b[i] ^ 0x20);
                    b[j] = static_cast<char>(b[j] ^ 0x01);
                    const DifferenceSpan want = reference(a, b);
                    const DifferenceSpan got = differenceSpan(a.data(), b.data(), n);
                    if (got.first != want.first || got.end != want.end)
                        QFAIL(
                            qPrintable(QStringLiteral("n %1, changed %2 and %3: got [%4, %5), want [%6, %7)")
                                           .arg(n)
                                           .arg(i)
                                           .arg(j)
                                           .arg(got.first)
                                           .arg(got.end)
                                           .arg(want.first)
                                           .arg(want.end)));
                    ++checked;
                }
            }
        }
        QVERIFY(checked > 100000);
    }

    void sameBytesMatchesMemcmp()
    {
        for (std::size_t n = 0; n <= 40; ++n) {
            const std::string a(n, 'q');
            QVERIFY(sameBytes(a.data(), a.data(), n));
            for (std::size_t i = 0; i < n; ++i) {
                std::string b = a;
                b[i] = 'r';
                QVERIFY(!sameBytes(a.data(), b.data(), n));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestByteCompare)
#include "tst_byte_compare.moc"
