"""Pictures for Latchkey's end-to-end tests, made and read by Pillow as a client would.

  pictures.py make FORMAT OUT [--metadata] [--large] [--icc]
                                             a small JPEG, PNG or WebP; with --metadata it
                                             carries Exif with a GPS position, and per format
                                             XMP, a comment, text or time where the format
                                             has them; --large makes it 2000 x 1400 pixels of
                                             noise (megabytes, like a phone's photo); --icc
                                             embeds an sRGB ICC profile (a WebP is then in
                                             the extended format, with VP8X)
  pictures.py splice FORMAT IN OUT           IN with what a list of chunks to remove would
                                             miss: a C2PA manifest (JPEG APP11, PNG caBX,
                                             WebP C2PA) and an unknown chunk, each naming a
                                             GPS position, plus APP13 in a JPEG
  pictures.py inspect FILE                   JSON: format, size, whether it decodes, and
                                             what metadata Pillow finds in it
"""
import json
import os
import struct
import sys
import zlib

from PIL import Image, ImageCms, PngImagePlugin

XMP = b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF/></x:xmpmeta>'


# What the spliced chunks say: the tests check that it is not served.
WHERE = b"GPSLatitude 50.8225N GPSLongitude 0.1372W"
MANIFEST = b"jumb" + b"c2pa" + b"c2pa.assertions" + WHERE


def make(kind, out, metadata, large, icc):
    if large:
        image = Image.frombytes("RGB", (2000, 1400), os.urandom(2000 * 1400 * 3))
    else:
        image = Image.new("RGB", (32, 24))
        image.putdata([(x * 8, y * 10, 128) for y in range(24) for x in range(32)])
    options = {}
    if metadata:
        exif = Image.Exif()
        exif[0x010F] = "PhoneMaker"  # Make
        exif[0x0132] = "2026:11:24 10:00:00"  # DateTime
        gps = exif.get_ifd(0x8825)
        gps.update({1: "N", 2: (51.0, 30.0, 0.0), 3: "W", 4: (0.0, 7.0, 0.0)})
        options["exif"] = exif
        if kind == "JPEG":
            options.update(comment=b"shot on a phone", xmp=XMP)
        if kind == "WEBP":
            options["xmp"] = XMP
        if kind == "PNG":
            text = PngImagePlugin.PngInfo()
            text.add_text("Author", "Ada")
            text.add_itxt("Location", "Sea Lane, Brighton")
            options["pnginfo"] = text
    if icc:
        options["icc_profile"] = ImageCms.ImageCmsProfile(ImageCms.createProfile("sRGB")).tobytes()
    if kind == "WEBP":
        options["lossless"] = True
    if kind == "JPEG":
        options["quality"] = 95
    image.save(out, kind, **options)


def jpeg_segment(marker, payload):
    return bytes([0xFF, marker]) + struct.pack(">H", len(payload) + 2) + payload


def png_chunk(kind, data):
    return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data))


def riff_chunk(fourcc, data):
    return fourcc + struct.pack("<I", len(data)) + data + (b"\0" if len(data) % 2 else b"")


def splice(kind, source, out):
    with open(source, "rb") as f:
        data = f.read()
    if kind == "JPEG":
        # After SOI and APP0 JFIF: APP11 (C2PA's JUMBF), APP13 (Photoshop IRB) and JPG1,
        # a marker no decoder reads.
        assert data[2:4] == b"\xff\xe0"
        at = 4 + struct.unpack(">H", data[4:6])[0]
        extra = jpeg_segment(0xEB, b"JP\x00\x01\x00\x00\x00\x01" + MANIFEST)
        extra += jpeg_segment(0xED, b"Photoshop 3.0\x008BIM\x04\x04" + WHERE)
        extra += jpeg_segment(0xF1, WHERE)
        data = data[:at] + extra + data[at:]
    elif kind == "PNG":
        # After IHDR: caBX (C2PA) and whRe, an ancillary chunk no standard names.
        at = 8 + 12 + struct.unpack(">I", data[8:12])[0]
        data = data[:at] + png_chunk(b"caBX", MANIFEST) + png_chunk(b"whRe", WHERE) + data[at:]
    else:
        # At the end: C2PA and WHRE, a chunk no standard names; the RIFF size follows.
        assert data[12:16] == b"VP8X", "an extended WebP (make it with --icc)"
        body = data[12:] + riff_chunk(b"C2PA", MANIFEST) + riff_chunk(b"WHRE", WHERE)
        data = b"RIFF" + struct.pack("<I", 4 + len(body)) + b"WEBP" + body
    with open(out, "wb") as f:
        f.write(data)


def inspect(path):
    with Image.open(path) as image:
        seen = {"format": image.format, "size": list(image.size)}
        image.load()
        seen["decodes"] = True
        exif = image.getexif()
        seen["exif"] = len(exif) > 0
        seen["gps"] = len(exif.get_ifd(0x8825)) > 0
        info = image.info
        seen["infoKeys"] = sorted(k for k in info if k not in ("dpi", "jfif", "jfif_version", "jfif_unit", "jfif_density", "icc_profile", "loop", "background", "duration", "timestamp", "progressive", "progression"))
    print(json.dumps(seen))


if __name__ == "__main__":
    if sys.argv[1] == "make":
        flags = sys.argv[4:]
        make(sys.argv[2].upper(), sys.argv[3], "--metadata" in flags, "--large" in flags, "--icc" in flags)
    elif sys.argv[1] == "splice":
        splice(sys.argv[2].upper(), sys.argv[3], sys.argv[4])
    else:
        inspect(sys.argv[2])
