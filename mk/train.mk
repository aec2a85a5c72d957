# train/: the net trainer (Python, PyTorch and numpy from Debian, deps/train.apt).
# `make train-test` runs its tests on data made by the built binary; `make
# check` runs it. The trainer runs with Debian's /usr/bin/python3, whose
# python3-torch the deps install (another python on PATH lacks it).
.DEFAULT_GOAL := all
PYTHON_TRAIN ?= /usr/bin/python3
CHECKS += train-test
.PHONY: train-test
train-test: $(BIN)
	TC_BIN=./$(BIN) $(PYTHON_TRAIN) -m unittest discover -s train -p 'test_*.py'
	$(PYTHON_TRAIN) bench/nnue-fit.py --smoke --bin ./$(BIN) > /dev/null 2>&1 || { echo "bench/nnue-fit.py --smoke failed"; exit 1; }
