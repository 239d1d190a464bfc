#include "VtpWriter.h"

namespace granular {

void writeVtp(std::ostream& out, const Frame& frame)
{
    const std::size_t n = frame.position.size();
    out << R"(<?xml version="1.0"?>)" << '\n'
        << R"(<VTKFile type="PolyData" version="1.0" byte_order="LittleEndian">)" << '\n'
        << "<PolyData>\n"
        << R"(<FieldData><DataArray type="Float64" Name="TIME" NumberOfTuples="1" format="ascii">)" << frame.time
        << "</DataArray></FieldData>\n"
        << R"(<Piece NumberOfPoints=")" << n << R"(" NumberOfVerts=")" << n << "\">\n"
        << "<Points><DataArray type=\"Float32\" NumberOfComponents=\"3\" format=\"ascii\">\n";
    for (const auto& x : frame.position) {
        out << x.x() << ' ' << x.y() << ' ' << x.z() << '\n';
    }
    out << "</DataArray></Points>\n<PointData Scalars=\"radius\" Vectors=\"velocity\">\n"
        << "<DataArray type=\"Float32\" Name=\"radius\" format=\"ascii\">\n";
    for (const float r : frame.radius) {
        out << r << '\n';
    }
    out << "</DataArray>\n<DataArray type=\"Float32\" Name=\"velocity\" NumberOfComponents=\"3\" format=\"ascii\">\n";
    for (const auto& v : frame.velocity) {
        out << v.x() << ' ' << v.y() << ' ' << v.z() << '\n';
    }
    out << "</DataArray>\n</PointData>\n<Verts>\n"
        << "<DataArray type=\"Int64\" Name=\"connectivity\" format=\"ascii\">\n";
    for (std::size_t i = 0; i < n; ++i) {
        out << i << '\n';
    }
    out << "</DataArray>\n<DataArray type=\"Int64\" Name=\"offsets\" format=\"ascii\">\n";
    for (std::size_t i = 1; i <= n; ++i) {
        out << i << '\n';
    }
    out << "</DataArray>\n</Verts>\n</Piece>\n</PolyData>\n</VTKFile>\n";
}

}  // namespace granular
