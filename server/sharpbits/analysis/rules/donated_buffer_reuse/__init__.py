"""SB106 donated-buffer-reuse: the rule (rule.py) and the analysis only it needs, the donations (donation.py: calls
that donate buffers, and the reads of a name after a point), built on demand as `model.fact(Donations)`."""

from sharpbits.analysis.rules.donated_buffer_reuse.rule import DonatedBufferReuse

__all__ = ["DonatedBufferReuse"]
