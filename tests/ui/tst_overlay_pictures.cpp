// The colour bars' labels (ui/OverlayPictures): round values within the bar's range, each printed so that it reads
// back as its value, neighbours differ and no label grows long: a common exponent where the values are tiny or huge
// (chain1d's speed bar spans micrometres per second), plain decimals otherwise.
#include "OverlayPictures.h"

#include <QTest>

#include <cmath>

using granular::ui::BarLabels;
using granular::ui::barLabels;
using granular::ui::barLabelText;
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
};

QTEST_MAIN(OverlayPicturesTest)
#include "tst_overlay_pictures.moc"
