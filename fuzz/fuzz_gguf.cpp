// A GGUF file: header, metadata, tensor table (types, shapes, offsets checked against the file), every
// tensor's bytes touched. (Decoding them is the model kernels' work, GCC vector code left out of this build.)
#include <QCoreApplication>

#include "FuzzSupport.h"
#include "formats/GgufFile.h"

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
    const QString path = swb::fuzz::inputFile(data, size, "model.gguf");
    swb::Result<swb::GgufFile> file = swb::GgufFile::open(path);
    if (!file)
        return 0;
    unsigned sum = 0;
    for (const swb::GgufFile::Tensor& tensor : file->tensors()) {
        (void)tensor.elements();
        for (std::uint64_t i = 0; tensor.data && i < tensor.bytes; i += 4096)
            sum += tensor.data[i];
        if (tensor.data && tensor.bytes > 0)
            sum += tensor.data[tensor.bytes - 1];
    }
    return static_cast<int>(sum & 0);
}
