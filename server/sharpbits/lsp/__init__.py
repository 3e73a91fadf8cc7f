"""The language server (pygls 2.x): `sharpbits serve`."""
