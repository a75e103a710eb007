"""Running the console script's entry in a fresh interpreter and recording what it imported."""

# `python -c FRONT_AND_TRACE TRACE ARGS...`: the console script through the front, then the
# sorted names of the modules the process imported, as JSON, into TRACE.
FRONT_AND_TRACE = (
    "import json, sys\n"
    "trace = sys.argv.pop(1)\n"
    "from drafterlint.front import main\n"
    "code = main()\n"
    "open(trace, 'w').write(json.dumps(sorted(sys.modules)))\n"
    "sys.exit(code)\n"
)
