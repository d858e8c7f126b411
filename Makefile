# gpubench build. `make` builds ./gpubench with CUDA kernels when nvcc is
# found (CUDA=0 forces a CPU-only build); see README.md for the targets.

.DEFAULT_GOAL := all

CC ?= gcc
NVCC ?= nvcc
PKG_CONFIG ?= pkg-config
PREFIX ?= /usr/local
# Where make install puts each part (DESTDIR, when set, is prepended to every one).
BINDIR ?= $(PREFIX)/bin
DATADIR ?= $(PREFIX)/share
# An installed gpubench finds its documentation at ../share/doc/gpubench beside its bin/ (common/docs.h).
DOCDIR ?= $(DATADIR)/doc/gpubench
MANDIR ?= $(DATADIR)/man/man1
SCRIPTDIR ?= $(DATADIR)/gpubench/scripts
BASHCOMPDIR ?= $(DATADIR)/bash-completion/completions
ZSHCOMPDIR ?= $(DATADIR)/zsh/site-functions
CUDA_ARCH ?= sm_90
GPUBENCH ?= ./gpubench

ifeq ($(origin CUDA), undefined)
  CUDA := $(if $(shell command -v $(NVCC) 2>/dev/null),1,0)
endif

CJSON_CFLAGS := $(shell $(PKG_CONFIG) --cflags libcjson 2>/dev/null)
CJSON_LIBS := $(shell $(PKG_CONFIG) --libs libcjson 2>/dev/null)
CJSON_FOUND := $(shell $(PKG_CONFIG) --exists libcjson 2>/dev/null && echo 1)

GIT_REV := $(shell git describe --always --dirty --abbrev=12 2>/dev/null || echo unknown)
# Rewritten only when the revision changes, so the objects that embed it rebuild then.
REV_STAMP := build/git-rev
$(shell mkdir -p build; echo '$(GIT_REV)' | cmp -s - $(REV_STAMP) || echo '$(GIT_REV)' > $(REV_STAMP))
REV_OBJS := main.o common/report.o cmd/info.o

# Kernels for CUDA_ARCH plus PTX of the same architecture, which newer GPUs JIT-compile.
CUDA_CC := $(patsubst sm_%,%,$(CUDA_ARCH))
GENCODE := -gencode arch=compute_$(CUDA_CC),code=sm_$(CUDA_CC) -gencode arch=compute_$(CUDA_CC),code=compute_$(CUDA_CC)

WARN := -Wall -Wextra -Werror
CFLAGS ?= -O2 -g
BASE_CFLAGS := -std=c11 -D_GNU_SOURCE -I. $(WARN) -pthread $(CJSON_CFLAGS)
NVCCFLAGS ?= -O3 -lineinfo
BASE_NVCCFLAGS := -std=c++17 -I. $(GENCODE) -Xcompiler "-Wall -Wextra -Werror" -Werror all-warnings \
	$(CJSON_CFLAGS) -DGB_CUDA_ARCHS='"$(CUDA_ARCH) compute_$(CUDA_CC)"'
LDLIBS := $(CJSON_LIBS) -lm -pthread -ldl

BUILD := build/$(if $(filter 1,$(CUDA)),cuda,cpu)

# Sources are found per folder: a new .c or .cu in a folder of the layering
# (tests/layers.sh) is built without a Makefile edit. Each folder is named
# once; the engine and workload families are the subfolders of stm/ and
# workloads/.
SRC_DIRS := common api cmd cmd/* workloads/* stm stm/* deadlock speculation structures
LIB_SRC := $(sort $(foreach d,$(SRC_DIRS),$(wildcard $(d)/*.c)))
# The device query: CUDA's in the CUDA build, a stand-in without one.
LIB_SRC := $(filter-out common/device_none.c,$(LIB_SRC))
# The opencl list implementation: built when the OpenCL headers and ICD loader are found (OPENCL=0 forces it off).
ifeq ($(origin OPENCL), undefined)
  OPENCL := $(shell test -f /usr/include/CL/cl.h && $(CC) -print-file-name=libOpenCL.so | grep -q / && echo 1 || echo 0)
endif
OPENCL_KERNEL_SRC := structures/list_kernel_port.cl structures/kma.h structures/semilist.h api/list_ops.h \
	structures/list_apply.h structures/list_kernel.cl
ifeq ($(OPENCL),1)
  OPENCL_LIBS := -lOpenCL
else
  LIB_SRC := $(filter-out structures/list_opencl.c,$(LIB_SRC))
endif
CUDA_SRC := $(sort $(foreach d,$(SRC_DIRS),$(wildcard $(d)/*.cu)))

ifeq ($(CUDA),1)
  CUDA_HOME ?= $(patsubst %/bin/,%,$(dir $(shell command -v $(NVCC))))
  C_SRC := $(LIB_SRC)
  BASE_CFLAGS += -DGB_HAVE_CUDA
  LDLIBS += -L$(CUDA_HOME)/lib64 -lcudart_static -ldl -lrt -lstdc++
  CU_OBJ := $(CUDA_SRC:%.cu=$(BUILD)/%.o)
  BUILD_FLAGS := cuda $(CUDA_ARCH)
else
  C_SRC := $(LIB_SRC) common/device_none.c
  CU_OBJ :=
  BUILD_FLAGS := cpu-only
endif
BASE_CFLAGS += -DGB_GIT_REV='"$(GIT_REV)"'
ifeq ($(OPENCL),1)
  BASE_CFLAGS += -DGB_HAVE_OPENCL -Ibuild/gen
  LDLIBS += $(OPENCL_LIBS)
endif
NOCUDA_CFLAGS := $(filter-out -DGB_HAVE_CUDA,$(BASE_CFLAGS))

# Everything but main.c is one static library per build, shared by the binary
# and (the CPU-only one) by the unit tests.
C_OBJ := $(C_SRC:%.c=$(BUILD)/%.o)
LIB := $(BUILD)/libgpubench.a
NOCUDA_OBJ := $(addprefix build/nocuda/,$(LIB_SRC:.c=.o) common/device_none.o)
NOCUDA_LIB := build/nocuda/libgpubench.a
$(addprefix $(BUILD)/,$(REV_OBJS)) $(addprefix build/nocuda/,$(REV_OBJS)): $(REV_STAMP)

# The unit tests: each file its own object, linked with the CPU-only library.
UNIT_SRC := $(wildcard tests/unit/*.c)
UNIT_OBJ := $(UNIT_SRC:%.c=build/nocuda/%.o)

# The OpenCL kernel source as a C string: the shared list code with its #include lines dropped.
build/gen/list_kernel_source.h: $(OPENCL_KERNEL_SRC) Makefile
	@mkdir -p $(dir $@)
	sed -e '/^#include/d' -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $(OPENCL_KERNEL_SRC) >$@
$(BUILD)/structures/list_opencl.o build/nocuda/structures/list_opencl.o: build/gen/list_kernel_source.h

.PHONY: all deps test check-gpu sanitize-gpu dist install uninstall clean need-cjson

all: need-cjson gpubench

need-cjson:
ifneq ($(CJSON_FOUND),1)
	$(error cJSON not found by pkg-config: run 'make deps' (Debian/Ubuntu: installs it with apt-get))
endif

# What the build and the tests need, installed with apt-get (sudo when not root); shared with .ci/run.
deps:
	scripts/deps.sh

gpubench: $(BUILD)/main.o $(LIB)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

$(LIB): $(C_OBJ) $(CU_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

# Objects depend on the headers they include, as the compilers list them
# (-MMD -MP, nvcc -MD -MP), and on the Makefile.
$(BUILD)/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) -DGB_BUILD_FLAGS='"$(BUILD_FLAGS) $(CFLAGS)"' $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/%.o: %.cu Makefile
	@mkdir -p $(dir $@)
	$(NVCC) $(BASE_NVCCFLAGS) $(NVCCFLAGS) -MD -MP -c -o $@ $<

# The CPU-only binary, built beside the CUDA one so `make test` covers both builds.
build/nocuda/gpubench: build/nocuda/main.o $(NOCUDA_LIB) | need-cjson
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(CJSON_LIBS) $(OPENCL_LIBS) -lm -pthread -ldl

$(NOCUDA_LIB): $(NOCUDA_OBJ)
	rm -f $@
	$(AR) rcs $@ $^

build/nocuda/%.o: %.c Makefile
	@mkdir -p $(dir $@)
	$(CC) $(NOCUDA_CFLAGS) -DGB_BUILD_FLAGS='"cpu-only $(CFLAGS)"' $(CFLAGS) -MMD -MP -c -o $@ $<

build/unit_tests: $(UNIT_OBJ) $(NOCUDA_LIB) | need-cjson
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(CJSON_LIBS) $(OPENCL_LIBS) -lm -pthread -ldl

test: all build/nocuda/gpubench build/unit_tests
	GPUBENCH=./gpubench GPUBENCH_NOCUDA=build/nocuda/gpubench tests/run.sh

# Run on a machine with a GPU. GPUBENCH=dist/bin/gpubench runs a prebuilt binary
# (the GPU machine has no cJSON headers to build with).
check-gpu:
	GPUBENCH=$(GPUBENCH) tests/gpu/check.sh

# Every GPU kernel under compute-sanitizer's memcheck, racecheck, synccheck and initcheck.
sanitize-gpu:
	GPUBENCH=$(GPUBENCH) tests/gpu/sanitize.sh

# DIST: where make dist writes (tests/install.sh makes one in a temporary folder).
DIST ?= dist
dist: all
	rm -rf $(DIST)
	mkdir -p $(DIST)/bin $(DIST)/lib $(DIST)/scripts $(DIST)/tests/gpu $(DIST)/share/man/man1 \
		$(DIST)/share/bash-completion/completions $(DIST)/share/zsh/site-functions
	$(CC) $(CFLAGS) -o $(DIST)/bin/gpubench $(BUILD)/main.o $(LIB) $(LDFLAGS) $(LDLIBS) \
		-Wl,--enable-new-dtags,-rpath,'$$ORIGIN/../lib'
	cp -L "$$(ldd $(DIST)/bin/gpubench | awk '/libcjson\.so/ {print $$3}')" $(DIST)/lib/libcjson.so.1
	if [ "$(OPENCL)" = 1 ]; then cp -L "$$(ldd $(DIST)/bin/gpubench | awk '/libOpenCL\.so/ {print $$3}')" $(DIST)/lib/libOpenCL.so.1; fi
	cp -r scripts/. $(DIST)/scripts/
	cp -r docs $(DIST)/  # scripts/claims.sh reads docs/claims.md
	cp tests/gpu/*.sh tests/lib.sh $(DIST)/tests/gpu/ 2>/dev/null || true
	./gpubench help --man docs >$(DIST)/share/man/man1/gpubench.1
	./gpubench help --completion bash >$(DIST)/share/bash-completion/completions/gpubench
	./gpubench help --completion zsh >$(DIST)/share/zsh/site-functions/_gpubench
	@echo "$(DIST)/ is self-contained: $(DIST)/bin/gpubench finds $(DIST)/lib/libcjson.so.1 through its RUNPATH;" \
		"man -l $(DIST)/share/man/man1/gpubench.1 is its manual page"

# The binary, the figure scripts, the documentation, the manual page (written by the binary from its
# option rows, naming the documentation where it is installed) and the bash and zsh completion.
install: all
	install -d $(DESTDIR)$(BINDIR) $(DESTDIR)$(DOCDIR) $(DESTDIR)$(MANDIR) $(DESTDIR)$(SCRIPTDIR) \
		$(DESTDIR)$(BASHCOMPDIR) $(DESTDIR)$(ZSHCOMPDIR)
	install -m 755 gpubench $(DESTDIR)$(BINDIR)/gpubench
	install -m 644 README.md docs/*.md $(DESTDIR)$(DOCDIR)/
	cp -R scripts/. $(DESTDIR)$(SCRIPTDIR)/
	find $(DESTDIR)$(SCRIPTDIR) -name __pycache__ -type d -prune -exec rm -rf {} +
	./gpubench help --man $(DOCDIR) >$(DESTDIR)$(MANDIR)/gpubench.1
	./gpubench help --completion bash >$(DESTDIR)$(BASHCOMPDIR)/gpubench
	./gpubench help --completion zsh >$(DESTDIR)$(ZSHCOMPDIR)/_gpubench

# What install put there, and the folders of gpubench's own.
uninstall:
	rm -f $(DESTDIR)$(BINDIR)/gpubench $(DESTDIR)$(MANDIR)/gpubench.1 $(DESTDIR)$(BASHCOMPDIR)/gpubench \
		$(DESTDIR)$(ZSHCOMPDIR)/_gpubench
	rm -rf $(DESTDIR)$(DOCDIR) $(DESTDIR)$(SCRIPTDIR)
	rmdir $(DESTDIR)$(DATADIR)/gpubench 2>/dev/null || true

clean:
	rm -rf build dist gpubench

-include $(C_OBJ:.o=.d) $(CU_OBJ:.o=.d) $(BUILD)/main.d $(NOCUDA_OBJ:.o=.d) build/nocuda/main.d $(UNIT_OBJ:.o=.d)
