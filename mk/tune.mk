# bench/tune: the evaluation tuner (Texel method), built on demand with
# `make tune`; it reaches into the engine's internals (eval.h, see.h).
# (The default goal stays `all`: this fragment is read before the main rules.)
.DEFAULT_GOAL := all
.PHONY: tune
tune: $(B)/tune
$(B)/tune: bench/tune.c $(B)/libtopochess.a $(ALL_HDR)
	@mkdir -p $(dir $@)
	$(CC) $(WARN) $(OPT) $(CFLAGS) $(CPPFLAGS) -Isrc/rules -Isrc/nnue -Isrc/engine -o $@ $< $(B)/libtopochess.a $(LDLIBS)
