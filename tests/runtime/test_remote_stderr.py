"""The far side's stderr, as `sharpbits run --launch-prefix` reads it: the program's bytes pass through in order
however the pipe splits them, and only the records block between the marker lines is taken out."""

from __future__ import annotations

import base64
import json
import random
import zlib

from sharpbits.runtime.remote import StderrFilter, bootstrap, launcher_interpreter, prefixed

MARK = "--sharpbits-run-records-0123456789abcdef--"


def _stream(program_err: bytes, records: dict[str, str]) -> bytes:
    blob = base64.b64encode(zlib.compress(json.dumps(records).encode())).decode()
    return program_err + f"\n{MARK}\n{blob}\n{MARK}\n".encode()


def _split(data: bytes, rng: random.Random) -> list[bytes]:
    cuts = sorted(rng.sample(range(1, len(data)), min(len(data) - 1, 12)))
    return [data[a:b] for a, b in zip([0, *cuts], [*cuts, len(data)], strict=True)]


def test_every_split_of_the_stream_gives_the_programs_bytes_and_the_records():
    rng = random.Random(25)
    # the program's own output, with a partial marker and a progress bar without a newline at its end
    program_err = b"warning: x\n--sharpbits-run-rec\nstep 3/10\r"
    records = {"records-12.jsonl": '{"key": "a", "count": 2}\n'}
    data = _stream(program_err, records)
    for _ in range(200):
        out: list[bytes] = []
        filt = StderrFilter(MARK, out.append)
        for chunk in _split(data, rng):
            filt.feed(chunk)
        filt.close()
        assert b"".join(out) == program_err
        assert filt.records == records


def test_output_arrives_as_it_comes_only_a_possible_marker_start_is_held():
    out: list[bytes] = []
    filt = StderrFilter(MARK, out.append)
    filt.feed(b"epoch 1 done\n")
    assert b"".join(out) == b"epoch 1 done"  # the newline could start the marker line: held until the next bytes
    filt.feed(b"epoch 2")
    assert b"".join(out) == b"epoch 1 done\nepoch 2"


def test_a_stream_without_records_passes_whole_and_says_none_came():
    out: list[bytes] = []
    filt = StderrFilter(MARK, out.append)
    filt.feed(b"bash: python3: command not found\n")
    filt.close()
    assert b"".join(out) == b"bash: python3: command not found\n" and filt.records is None


def test_ssh_style_prefixes_get_one_quoted_command_others_separate_arguments():
    command = ["python3", "-c", bootstrap({"launcher": "pass"})]
    joined = prefixed(["ssh", "-p", "22", "gpu-box"], command)
    assert joined[:4] == ["ssh", "-p", "22", "gpu-box"] and len(joined) == 5 and joined[4].startswith("python3 -c '")
    assert prefixed(["srun", "-p", "gpu"], command) == ["srun", "-p", "gpu", *command]
    assert "'" not in command[2]  # survives shell quoting unchanged


def test_the_launcher_runs_with_the_programs_python_else_python3():
    assert launcher_interpreter(["python3.11", "train.py"], None) == "python3.11"
    assert launcher_interpreter(["/opt/venv/bin/python", "train.py"], None) == "/opt/venv/bin/python"
    assert launcher_interpreter(["env", "A=1", "python", "x.py"], None) == "python3"
    assert launcher_interpreter(["python", "x.py"], "/usr/bin/python3.12") == "/usr/bin/python3.12"
