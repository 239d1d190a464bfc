#include "FrameExport.h"

#include "ParaviewFiles.h"
#include "RunOutput.h"
#include "sim/Frame.h"

#include <ostream>
#include <string>

namespace granular::vtkio {

void exportFrame(const Frame& frame, const std::filesystem::path& collection)
{
    const std::string stem = collection.stem().string();
    const FrameFiles files{stem + "_particles.vtp", stem + "_contacts.vtp", stem + "_boundaries.vtp"};
    const std::filesystem::path directory = collection.parent_path();
    writeFrame(frame, files, [&directory](const std::string& name, const std::string& content) {
        writeFileAtomically(directory / name, [&content](std::ostream& out) {
            out.write(content.data(), static_cast<std::streamsize>(content.size()));
        });
    });
    const std::vector<CollectionStep> steps{{frame.time, files}};
    writeFileAtomically(collection, [&steps](std::ostream& out) { writeCollection(out, steps); });
}

}  // namespace granular::vtkio
