"""The constants every host of the plugin keeps alike, generated from the Rust host's own:
do not edit (`INTERVIEW_BLESS=1 cargo test -p interview-host contract` writes it anew)."""

# The exit code of each way a run ends.
EXIT = {
    "answered": 0,
    "cancelled": 1,
    "invalid": 2,
    "unavailable": 3,
    "failed": 4,
    "declined": 5,
    "unwritten": 6,
    "interrupted": 130,
}

# The sandbox's default limits: the plugin's memory, its compute time in a call, the
# largest request, and the elements of any one of its tables.
MEMORY_BYTES = 67108864
COMPUTE_MS = 2000
REQUEST_BYTES = 8388608
TABLE_ELEMENTS = 10000
# A call the plugin failed after the person answered is played back with this many
# times the memory and the compute time.
REPLAY_MEMORY = 4
REPLAY_COMPUTE = 5
# Wording a result takes the plugin about this much memory a byte of the text it words;
# a plugin's memory is at most MOST_MEMORY.
WORDING_MEMORY_PER_BYTE = 16
MOST_MEMORY = 4294967296

# The code points a printed result has escaped, as \uXXXX (beyond the Basic
# Multilingual Plane, a UTF-16 pair): the controls above U+001F, format characters,
# line and paragraph separators, and default-ignorable code points. Ranges, inclusive.
ESCAPED = (
    (0x007f, 0x009f),
    (0x00ad, 0x00ad),
    (0x034f, 0x034f),
    (0x0600, 0x0605),
    (0x061c, 0x061c),
    (0x06dd, 0x06dd),
    (0x070f, 0x070f),
    (0x0890, 0x0891),
    (0x08e2, 0x08e2),
    (0x115f, 0x1160),
    (0x17b4, 0x17b5),
    (0x180b, 0x180f),
    (0x200b, 0x200f),
    (0x2028, 0x202e),
    (0x2060, 0x206f),
    (0x3164, 0x3164),
    (0xfe00, 0xfe0f),
    (0xfeff, 0xfeff),
    (0xffa0, 0xffa0),
    (0xfff0, 0xfffb),
    (0x110bd, 0x110bd),
    (0x110cd, 0x110cd),
    (0x13430, 0x1343f),
    (0x1bca0, 0x1bca3),
    (0x1d173, 0x1d17a),
    (0xe0000, 0xe0fff),
)
