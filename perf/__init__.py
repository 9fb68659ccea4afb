"""Speed and load benchmarks (not tests): `make bench`, `make loadtest`."""
