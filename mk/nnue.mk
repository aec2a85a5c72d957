# The learned evaluation's speed bench (bench/nnue.sh): build/nnue_bench,
# built on demand with `make nnue-bench`; it reaches into src/nnue for the
# random nets and the per-kernel rates.
.DEFAULT_GOAL := all
.PHONY: nnue-bench
nnue-bench: $(B)/nnue_bench
$(B)/nnue_bench: bench/nnue.c $(B)/libtopochess.a $(ALL_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(OPT) $(CFLAGS) $(CPPFLAGS) -Isrc/rules -Isrc/nnue -o $@ $< $(B)/libtopochess.a $(LDLIBS)
