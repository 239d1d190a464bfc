// The colour bars' labels (ui/OverlayPictures): round values within the bar's range, each printed so that it reads
// back as its value, neighbours differ and no label grows long: a common exponent where the values are tiny or huge
// (chain1d's speed bar spans micrometres per second), plain decimals otherwise. The caption broken into lines between
// its fields where the view is narrower than it.
#include "OverlayPictures.h"

#include <QFontMetrics>
#include <QTest>

#include <algorithm>
#include <cmath>

using granular::ui::BarLabels;
using granular::ui::barLabels;
using granular::ui::barLabelText;
using granular::ui::captionImage;
using granular::ui::captionLines;
using granular::ui::colourBarImage;
using granular::ui::ColourBarLayout;
using granular::ui::colourBarLayout;
using granular::ui::ColourBarLook;

namespace {

QStringList textsOf(const BarLabels& labels)
{
    QStringList texts;
    for (const double value : labels.values) {
        texts << barLabelText(labels, value);
    }
    return texts;
}

}  // namespace

class OverlayPicturesTest : public QObject {
    Q_OBJECT

private slots:
    void metresReadAsBefore()
    {
        const BarLabels labels = barLabels(0.0, 152.0, false);
        QCOMPARE(labels.exponent, 0);
        QCOMPARE(textsOf(labels), QStringList({"0", "50", "100", "150"}));
    }

    void micrometresPerSecondTakeAnExponent()
    {
        const BarLabels labels = barLabels(0.0, 2.1e-6, false);
        QCOMPARE(labels.exponent, -6);
        QCOMPARE(textsOf(labels), QStringList({"0", "0.5e-6", "1.0e-6", "1.5e-6", "2.0e-6"}));
    }

    void everyLabelReadsBackAsItsValue_data()
    {
        QTest::addColumn<double>("low");
        QTest::addColumn<double>("high");
        QTest::newRow("speed, um/s") << 0.0 << 2.1e-6;
        QTest::newRow("a piston's micrometre travel") << 0.149998 << 0.150003;
        QTest::newRow("forces, MN") << 0.0 << 3.7e6;
        QTest::newRow("negative, small") << -4.2e-5 << 3.1e-5;
        QTest::newRow("height, m") << 0.0 << 0.35;
    }
    void everyLabelReadsBackAsItsValue()
    {
        QFETCH(double, low);
        QFETCH(double, high);
        const BarLabels labels = barLabels(low, high, false);
        const QStringList texts = textsOf(labels);
        QVERIFY2(texts.size() >= 2, qPrintable(texts.join(' ')));
        for (qsizetype k = 0; k < texts.size(); ++k) {
            bool ok = false;
            const double read = texts[k].toDouble(&ok);
            QVERIFY2(ok, qPrintable(texts[k]));
            const double value = labels.values[static_cast<std::size_t>(k)];
            QVERIFY2(std::fabs(read - value) <= 1e-9 * (high - low), qPrintable(texts[k]));
            QVERIFY2(texts[k].size() <= 8, qPrintable(texts[k]));
            if (k > 0) {
                QVERIFY2(texts[k] != texts[k - 1], qPrintable(texts.join(' ')));
            }
        }
    }

    void theLayoutSaysWhereThePictureDrawsItsTitleAndColumn_data()
    {
        QTest::addColumn<bool>("labelsLeft");
        QTest::addColumn<double>("pixelsPerPoint");
        QTest::newRow("particle bar, labels left") << true << 1.0;
        QTest::newRow("force bar, presentation") << false << 1.6;
    }

    void theLayoutSaysWhereThePictureDrawsItsTitleAndColumn()
    {
        // Every drawn pixel lies in the title's band across the top or in the column of the ramp and its labels (the
        // reset camera keeps the scene out of both); the title, wider than the column, reaches beyond it.
        QFETCH(bool, labelsLeft);
        QFETCH(double, pixelsPerPoint);
        ColourBarLook look;
        look.stops = granular::ui::kParticleColours;
        look.low = 0.0;
        look.high = 152.0;
        look.title = QStringLiteral("height (m)");
        look.labelsLeft = labelsLeft;
        look.height = 500;
        look.rampWidth = 20;
        look.pixelsPerPoint = pixelsPerPoint;
        const QImage image = colourBarImage(look);
        const ColourBarLayout layout = colourBarLayout(look);
        QCOMPARE(image.width(), layout.width);
        QCOMPARE(image.height(), layout.height);
        QVERIFY(layout.columnWidth < layout.width);
        const int columnLeft = labelsLeft ? layout.width - layout.columnWidth : 0;
        qint64 outside = 0;
        qint64 titleBeyondColumn = 0;
        for (int y = 0; y < image.height(); ++y) {
            for (int x = 0; x < image.width(); ++x) {
                if (qAlpha(image.pixel(x, y)) == 0) {
                    continue;
                }
                const bool inColumn = x >= columnLeft && x < columnLeft + layout.columnWidth;
                outside += y >= layout.titleHeight && !inColumn ? 1 : 0;
                titleBeyondColumn += y < layout.titleHeight && !inColumn ? 1 : 0;
            }
        }
        QCOMPARE(outside, qint64{0});
        QVERIFY(titleBeyondColumn > 0);
    }

    void aCaptionTooWideForTheViewBreaksBetweenWholeFields()
    {
        // piston2d's caption at a projector's text size in its 550-pixel view: lines no wider than the view, broken
        // where fields meet, every field there once and in order; one line where it fits.
        const QString fields =
            QStringLiteral("t = 27.5 s   1000 particles   1699 grain-grain contacts   <f_n> = 441 N   chains: "
                           "f_n >= 1 <f_n>");
        const QFontMetrics metrics(granular::ui::overlayFont(27));
        const int width = 540;
        const QStringList lines = captionLines(fields, metrics, width);
        QVERIFY2(lines.size() >= 2, qPrintable(lines.join('|')));
        for (const QString& line : lines) {
            QVERIFY2(metrics.horizontalAdvance(line) <= width, qPrintable(line));
            QVERIFY2(!line.startsWith(' ') && !line.endsWith(' '), qPrintable(line));
        }
        QCOMPARE(lines.join(granular::ui::kCaptionSeparator), fields);

        // The camera's note, one field wider than this view, is broken between its words
        // on lines of its own: every line within the view, every word there once and in order.
        const QString note = QStringLiteral("(while the camera moves: the 2000 strongest of 2322 sticks)");
        const QString text = fields + granular::ui::kCaptionSeparator + note;
        QVERIFY(metrics.horizontalAdvance(note) > width);
        const QStringList withNote = captionLines(text, metrics, width);
        QCOMPARE(withNote.mid(0, lines.size()), lines);
        QVERIFY2(withNote.size() >= lines.size() + 2, qPrintable(withNote.join('|')));
        for (const QString& line : withNote) {
            QVERIFY2(metrics.horizontalAdvance(line) <= width, qPrintable(line));
        }
        QCOMPARE(withNote.mid(lines.size()).join(' '), note);
        // Where not even a word fits, each word has a line of its own, whole.
        QCOMPARE(captionLines(text, metrics, 10), text.split(' ', Qt::SkipEmptyParts));
        QCOMPARE(captionLines(text, metrics, 0), QStringList{text});
        QCOMPARE(captionLines(QStringLiteral("t = 1 s   2 particles"), metrics, width).size(), qsizetype{1});

        // The picture: one text line per line, as wide as the widest plus a 2-pixel margin.
        const QImage one = captionImage(QStringList{fields}, 27);
        const QImage broken = captionImage(lines, 27);
        int widest = 0;
        for (const QString& line : lines) {
            widest = std::max(widest, metrics.horizontalAdvance(line));
        }
        QCOMPARE(broken.width(), widest + 2);
        QCOMPARE(broken.height(), metrics.height() + static_cast<int>(lines.size() - 1) * metrics.lineSpacing());
        QCOMPARE(one.height(), metrics.height());
    }

    void aCaptionsBreaksStayWhileTheyFit()
    {
        // The time gains digits from frame to frame: once a field has moved down it stays there while the lines of
        // before fit, rather than hopping back up and down; with more fields, or lines that no longer fit, the
        // breaks are made afresh.
        const QFontMetrics metrics(granular::ui::overlayFont(27));
        const QString longer = QStringLiteral("t = 27.5123 s   1000 particles   1699 contacts");
        const QString shorter = QStringLiteral("t = 27.5 s   1000 particles   1699 contacts");
        const int width = metrics.horizontalAdvance(shorter) + 2;  // the short one fits on a line, the long one not
        const QStringList broken = captionLines(longer, metrics, width);
        QCOMPARE(broken.size(), qsizetype{2});
        const QList<qsizetype> keep = granular::ui::fieldsPerLine(broken);
        QCOMPARE(keep, (QList<qsizetype>{2, 1}));
        QCOMPARE(captionLines(shorter, metrics, width, keep),
                 (QStringList{QStringLiteral("t = 27.5 s   1000 particles"), QStringLiteral("1699 contacts")}));
        QCOMPARE(captionLines(shorter, metrics, width), QStringList{shorter});
        // Another field: afresh.
        const QString more = shorter + QStringLiteral("   <f_n> = 441 N");
        QCOMPARE(granular::ui::fieldsPerLine(captionLines(more, metrics, width, keep)),
                 granular::ui::fieldsPerLine(captionLines(more, metrics, width)));
    }
};

QTEST_MAIN(OverlayPicturesTest)
#include "tst_overlay_pictures.moc"
