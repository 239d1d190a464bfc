#include "ParaviewFiles.h"

#include "BoundaryGeometry.h"
#include "sim/Frame.h"
#include "util/ShownTime.h"

#include <vtkCellArray.h>
#include <vtkCellData.h>
#include <vtkDoubleArray.h>
#include <vtkFieldData.h>
#include <vtkFloatArray.h>
#include <vtkIntArray.h>
#include <vtkPointData.h>
#include <vtkPoints.h>
#include <vtkUnsignedCharArray.h>
#include <vtkXMLPolyDataWriter.h>

#include <iomanip>
#include <limits>
#include <sstream>

namespace granular::vtkio {

namespace {

/// A named float array of `components` per tuple, `count` tuples.
vtkNew<vtkFloatArray> floatArray(const char* name, int components, vtkIdType count)
{
    vtkNew<vtkFloatArray> array;
    array->SetName(name);
    array->SetNumberOfComponents(components);
    array->SetNumberOfTuples(count);
    return array;
}

vtkNew<vtkIntArray> intArray(const char* name, vtkIdType count)
{
    vtkNew<vtkIntArray> array;
    array->SetName(name);
    array->SetNumberOfTuples(count);
    return array;
}

void setVector(vtkFloatArray& array, vtkIdType i, const Eigen::Vector3f& v)
{
    array.SetTypedTuple(i, v.data());
}

void addTime(vtkPolyData& data, double time)
{
    vtkNew<vtkDoubleArray> value;
    value->SetName("TimeValue");
    value->SetNumberOfTuples(1);
    value->SetValue(0, shownTime(time));  // the series' digits
    data.GetFieldData()->AddArray(value);
}

/// Appends the cells of `part` (lines and polygons) to the points and cell lists, noting `kind` per cell.
void appendPart(vtkPolyData& part, int kind, vtkPoints& points, vtkCellArray& lines, vtkCellArray& polygons,
                std::vector<int>& lineKinds, std::vector<int>& polygonKinds)
{
    const vtkIdType offset = points.GetNumberOfPoints();
    for (vtkIdType i = 0; i < part.GetNumberOfPoints(); ++i) {
        points.InsertNextPoint(part.GetPoint(i));
    }
    const auto copy = [offset](vtkCellArray* from, vtkCellArray& to, std::vector<int>& kinds, int cellKind) {
        if (from == nullptr) {
            return;
        }
        const vtkIdType cells = from->GetNumberOfCells();
        for (vtkIdType c = 0; c < cells; ++c) {
            vtkNew<vtkIdList> ids;
            from->GetCellAtId(c, ids);
            to.InsertNextCell(static_cast<int>(ids->GetNumberOfIds()));
            for (vtkIdType k = 0; k < ids->GetNumberOfIds(); ++k) {
                to.InsertCellPoint(ids->GetId(k) + offset);
            }
            kinds.push_back(cellKind);
        }
    };
    copy(part.GetLines(), lines, lineKinds, kind);
    copy(part.GetPolys(), polygons, polygonKinds, kind);
}

/// `text` as an XML attribute's value: &, <, > and " escaped (a file named "salt & pepper" made the .pvd unreadable).
std::string xmlAttribute(const std::string& text)
{
    std::string escaped;
    for (const char c : text) {
        switch (c) {
        case '&':
            escaped += "&amp;";
            break;
        case '<':
            escaped += "&lt;";
            break;
        case '>':
            escaped += "&gt;";
            break;
        case '"':
            escaped += "&quot;";
            break;
        default:
            escaped += c;
        }
    }
    return escaped;
}

}  // namespace

vtkNew<vtkPolyData> particleData(const Frame& frame)
{
    const auto n = static_cast<vtkIdType>(frame.position.size());
    vtkNew<vtkPoints> points;
    points->SetDataTypeToFloat();
    points->SetNumberOfPoints(n);
    auto radius = floatArray("radius", 1, n);
    auto velocity = floatArray("velocity", 3, n);
    auto angularVelocity = floatArray("angular_velocity", 3, n);
    auto forceSum = floatArray("force_sum", 3, n);
    auto overlap = floatArray("overlap", 1, n);
    auto deformation = floatArray("deformation", 1, n);
    auto coordination = intArray("coordination", n);
    auto id = intArray("id", n);
    vtkNew<vtkCellArray> vertices;
    for (vtkIdType i = 0; i < n; ++i) {
        const auto k = static_cast<std::size_t>(i);
        const Eigen::Vector3d x = frame.position[k].cast<double>();
        points->SetPoint(i, x.data());
        radius->SetValue(i, frame.radius[k]);
        setVector(*velocity.Get(), i, frame.velocity[k]);
        setVector(*angularVelocity.Get(), i, frame.angularVelocity[k]);
        setVector(*forceSum.Get(), i, frame.forceSum[k]);
        overlap->SetValue(i, frame.overlap[k]);
        deformation->SetValue(i, frame.deformation[k]);
        coordination->SetValue(i, frame.coordination[k]);
        id->SetValue(i, static_cast<int>(i));
        vertices->InsertNextCell(1, &i);
    }
    vtkNew<vtkPolyData> data;
    data->SetPoints(points);
    data->SetVerts(vertices);
    auto* pointData = data->GetPointData();
    pointData->AddArray(radius);
    pointData->AddArray(velocity);
    pointData->AddArray(angularVelocity);
    pointData->AddArray(forceSum);
    pointData->AddArray(coordination);
    pointData->AddArray(overlap);
    pointData->AddArray(deformation);
    pointData->AddArray(id);
    pointData->SetActiveScalars("radius");
    addTime(*data.Get(), frame.time);
    return data;
}

vtkNew<vtkPolyData> contactData(const Frame& frame)
{
    vtkNew<vtkPoints> points;
    points->SetDataTypeToFloat();
    vtkNew<vtkCellArray> lines;
    std::vector<const Frame::Contact*> drawn;
    for (const auto& c : frame.contacts) {
        const auto stick = frame.contactEnds(c);
        if (!stick) {
            continue;
        }
        const Eigen::Vector3d fromPoint = stick->first.cast<double>();
        const Eigen::Vector3d toPoint = stick->second.cast<double>();
        const vtkIdType a = points->InsertNextPoint(fromPoint.data());
        const vtkIdType b = points->InsertNextPoint(toPoint.data());
        const std::array<vtkIdType, 2> ends{a, b};
        lines->InsertNextCell(2, ends.data());
        drawn.push_back(&c);
    }
    const auto count = static_cast<vtkIdType>(drawn.size());
    auto normal = floatArray("normal_force", 1, count);
    auto tangential = floatArray("tangential_force", 1, count);
    auto first = intArray("first", count);
    auto second = intArray("second", count);
    vtkNew<vtkUnsignedCharArray> created;
    created->SetName("created_by_deformation");
    created->SetNumberOfTuples(count);
    for (vtkIdType k = 0; k < count; ++k) {
        const Frame::Contact& c = *drawn[static_cast<std::size_t>(k)];
        normal->SetValue(k, c.normalForce);
        tangential->SetValue(k, c.tangentialForce);
        first->SetValue(k, c.first);
        second->SetValue(k, c.second);
        created->SetValue(k, c.createdByDeformation ? 1 : 0);
    }
    vtkNew<vtkPolyData> data;
    data->SetPoints(points);
    data->SetLines(lines);
    auto* cellData = data->GetCellData();
    cellData->AddArray(normal);
    cellData->AddArray(tangential);
    cellData->AddArray(first);
    cellData->AddArray(second);
    cellData->AddArray(created);
    cellData->SetActiveScalars("normal_force");
    addTime(*data.Get(), frame.time);
    return data;
}

vtkNew<vtkPolyData> boundaryData(const Frame& frame)
{
    vtkNew<vtkPoints> points;
    vtkNew<vtkCellArray> lines;
    vtkNew<vtkCellArray> polygons;
    std::vector<int> lineKinds;
    std::vector<int> polygonKinds;
    appendPart(*wallGeometry(frame, false).Get(), 0, *points.Get(), *lines.Get(), *polygons.Get(), lineKinds,
               polygonKinds);
    appendPart(*wallGeometry(frame, true).Get(), 1, *points.Get(), *lines.Get(), *polygons.Get(), lineKinds,
               polygonKinds);
    appendPart(*containerGeometry(frame).Get(), 2, *points.Get(), *lines.Get(), *polygons.Get(), lineKinds,
               polygonKinds);
    vtkNew<vtkPolyData> data;
    data->SetPoints(points);
    data->SetLines(lines);
    data->SetPolys(polygons);
    // Cell data runs over lines first, then polygons (vtkPolyData's order of cells).
    auto kind =
        intArray("boundary", static_cast<vtkIdType>(lineKinds.size()) + static_cast<vtkIdType>(polygonKinds.size()));
    vtkIdType k = 0;
    for (const int value : lineKinds) {
        kind->SetValue(k++, value);
    }
    for (const int value : polygonKinds) {
        kind->SetValue(k++, value);
    }
    data->GetCellData()->AddArray(kind);
    addTime(*data.Get(), frame.time);
    return data;
}

std::string polyDataFile(vtkPolyData& data)
{
    vtkNew<vtkXMLPolyDataWriter> writer;
    writer->SetInputData(&data);
    writer->SetWriteToOutputString(true);
    writer->SetDataModeToAppended();
    writer->EncodeAppendedDataOff();
    writer->SetCompressorTypeToZLib();
    writer->SetHeaderTypeToUInt64();
    if (writer->Write() != 1) {
        throw std::runtime_error("VTK's XML writer failed to encode a data set");
    }
    return writer->GetOutputString();
}

FrameFiles runFrameFiles(std::int64_t index)
{
    std::ostringstream number;
    number << std::setw(6) << std::setfill('0') << index << ".vtp";
    return {"frames/particles_" + number.str(), "frames/contacts_" + number.str(), "frames/boundaries_" + number.str()};
}

void writeFrame(const Frame& frame, const FrameFiles& files,
                const std::function<void(const std::string& name, const std::string& content)>& write)
{
    write(files.particles, polyDataFile(*particleData(frame).Get()));
    write(files.contacts, polyDataFile(*contactData(frame).Get()));
    write(files.boundaries, polyDataFile(*boundaryData(frame).Get()));
}

void writeCollection(std::ostream& out, const std::vector<CollectionStep>& steps)
{
    out << "<?xml version=\"1.0\"?>\n"
        << "<VTKFile type=\"Collection\" version=\"0.1\" byte_order=\"LittleEndian\">\n"
        << "  <Collection>\n";
    out << std::setprecision(std::numeric_limits<double>::max_digits10);
    for (const auto& step : steps) {
        const auto entry = [&](int part, const char* name, const std::string& file) {
            out << R"(    <DataSet timestep=")" << timeText(step.time) << R"(" group="" part=")" << part
                << R"(" name=")" << name << R"(" file=")" << xmlAttribute(file) << "\"/>\n";
        };
        entry(0, "particles", step.files.particles);
        entry(1, "contacts", step.files.contacts);
        entry(2, "boundaries", step.files.boundaries);
    }
    out << "  </Collection>\n</VTKFile>\n";
}

}  // namespace granular::vtkio
