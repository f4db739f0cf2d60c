"""Pictures for Latchkey's end-to-end tests, made and read by Pillow as a client would.

  pictures.py make FORMAT OUT [--metadata] [--large]
                                             a small JPEG, PNG or WebP; with --metadata it
                                             carries Exif with a GPS position, and per format
                                             XMP, a comment, text or time where the format
                                             has them; --large makes it 2000 x 1400 pixels of
                                             noise (megabytes, like a phone's photo)
  pictures.py inspect FILE                   JSON: format, size, whether it decodes, and
                                             what metadata Pillow finds in it
"""
import json
import os
import sys

from PIL import Image, PngImagePlugin

XMP = b'<x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF/></x:xmpmeta>'


def make(kind, out, metadata, large):
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
    if kind == "WEBP":
        options["lossless"] = True
    if kind == "JPEG":
        options["quality"] = 95
    image.save(out, kind, **options)


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
        make(sys.argv[2].upper(), sys.argv[3], "--metadata" in sys.argv[4:], "--large" in sys.argv[4:])
    else:
        inspect(sys.argv[2])
