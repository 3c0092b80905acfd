"""The real clock and entropy, taken when loopstep's modules are imported, before any run
replaces them (clock.py, chance.py): the recorder's own timing (the CLI's progress line, a
live call's seconds) and a ``real`` world read these, never the run's virtual ones."""

import datetime as _datetime
import os as _os
import random as _random
import time as _time

time = _time.time
time_ns = _time.time_ns
monotonic = _time.monotonic
monotonic_ns = _time.monotonic_ns
perf_counter = _time.perf_counter
sleep = _time.sleep
localtime = _time.localtime
gmtime = _time.gmtime
strftime = _time.strftime
ctime = _time.ctime
asctime = _time.asctime
urandom = _os.urandom
datetime = _datetime.datetime
date = _datetime.date
Random = _random.Random
