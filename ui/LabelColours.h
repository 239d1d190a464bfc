#pragma once

#include <QColor>
#include <QLabel>
#include <QPalette>

namespace granular::ui {

/// Colours a label through its palette: text, and where `background` is valid, a filled background. Not a style sheet:
/// a widget with a style sheet kept the usual text size in presentation mode (its font no longer followed the
/// window's).
inline void setLabelColours(QLabel& label, const QColor& text, const QColor& background = QColor())
{
    QPalette palette = label.palette();
    palette.setColor(QPalette::WindowText, text);
    if (background.isValid()) {
        palette.setColor(QPalette::Window, background);
        label.setAutoFillBackground(true);
    }
    label.setPalette(palette);
}

}  // namespace granular::ui
