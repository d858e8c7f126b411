# gpubench build. `make` builds ./gpubench with CUDA kernels when nvcc is
# found (CUDA=0 forces a CPU-only build); see README.md for the targets.

.DEFAULT_GOAL := all

CC ?= gcc
NVCC ?= nvcc
PKG_CONFIG ?= pkg-config
PREFIX ?= /usr/local
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
LDLIBS := $(CJSON_LIBS) -lm -pthread

BUILD := build/$(if $(filter 1,$(CUDA)),cuda,cpu)

COMMON_SRC := common/error.c common/opts.c common/stats.c common/timer.c common/report.c \
	common/backend.c common/ranktest.c common/report_read.c common/metric_diff.c \
	common/output.c common/impl.c common/memory.c common/options.c common/progress.c \
	common/measure.c common/report_results.c common/registry.c
PBA_SRC := api/pba_model.c deadlock/pba_cpu.c deadlock/pba_registry.c workloads/pba_gen.c \
	workloads/pba_oracle.c workloads/pba_trace.c
RAG_SRC := api/rag_model.c deadlock/rag.c deadlock/rag_registry.c deadlock/osdda_cpu.c deadlock/lmdda_cpu.c \
	deadlock/lmdda_fast.c deadlock/rag_stream_cpu.c workloads/rag_oracle.c workloads/rag_gen.c workloads/rag_trace.c
LIST_SRC := structures/kma_host.c structures/list_heap.c structures/list_serial.c structures/list_cpu.c \
	structures/list_registry.c workloads/list_gen.c workloads/list_oracle.c
# The opencl list implementation: built when the OpenCL headers and ICD loader are found (OPENCL=0 forces it off).
ifeq ($(origin OPENCL), undefined)
  OPENCL := $(shell test -f /usr/include/CL/cl.h && $(CC) -print-file-name=libOpenCL.so | grep -q / && echo 1 || echo 0)
endif
OPENCL_KERNEL_SRC := structures/list_kernel_port.cl structures/kma.h structures/semilist.h api/list_ops.h \
	structures/list_apply.h structures/list_kernel.cl
ifeq ($(OPENCL),1)
  LIST_SRC += structures/list_opencl.c
  OPENCL_LIBS := -lOpenCL
endif
STM_SRC := stm/registry.c stm/counters.c stm/stm_cpu.c stm/prstm_cpu.c stm/prstm_cpu_set16.c stm/prstm_cpu_long.c stm/gpustm_cpu.c \
	stm/gpustm_cpu_set16.c workloads/bank.c workloads/bank_stm.c workloads/vacation.c workloads/vacation_stm.c \
	workloads/skiplist.c workloads/skiplist_stm.c workloads/stm_workloads.c
STM_SRC += workloads/kmeans.c workloads/kmeans_stm.c workloads/graph.c workloads/graph_stm.c workloads/stm_order.c \
	workloads/memcached.c workloads/memcached_stm.c
STM_SRC += stm/csmv_store.c stm/csmv_cpu.c stm/jvstm_cpu.c
SPEC_SRC := api/loop_clause.c speculation/runtime.c speculation/replay.c speculation/backend_cpu.c \
	workloads/spec_loops.c speculation/cpu_pool.c speculation/cpu_spec_mem.c speculation/cpu_inspect.c \
	speculation/cpu_spec.c
CORE_SRC := main.c $(COMMON_SRC) cmd/commands.c cmd/stm.c cmd/avoid.c cmd/detect.c cmd/speculate.c cmd/list.c cmd/info.c \
	cmd/compare.c \
	$(STM_SRC) $(PBA_SRC) $(RAG_SRC) $(SPEC_SRC) $(LIST_SRC)
CUDA_SRC := common/device_cuda.cu stm/stm_gpu.cu stm/prstm_gpu.cu stm/prstm_gpu_set2.cu stm/prstm_gpu_set4.cu \
	stm/prstm_gpu_set16.cu stm/prstm_gpu_long.cu stm/gpustm_gpu.cu stm/gpustm_gpu_set16.cu stm/csmv_gpu.cu stm/jvstm_gpu.cu deadlock/pba_gpu_common.cu \
	deadlock/pba_gpu.cu \
	deadlock/pba_thesis_gpu.cu deadlock/rag_gpu.cu deadlock/osdda_gpu.cu deadlock/lmdda_gpu.cu \
	deadlock/rag_stream.cu speculation/backend_gpu.cu structures/list_gpu.cu

ifeq ($(CUDA),1)
  CUDA_HOME ?= $(patsubst %/bin/,%,$(dir $(shell command -v $(NVCC))))
  C_SRC := $(CORE_SRC)
  BASE_CFLAGS += -DGB_HAVE_CUDA
  LDLIBS += -L$(CUDA_HOME)/lib64 -lcudart_static -ldl -lrt -lstdc++
  CU_OBJ := $(CUDA_SRC:%.cu=$(BUILD)/%.o)
  BUILD_FLAGS := cuda $(CUDA_ARCH)
else
  C_SRC := $(CORE_SRC) common/device_none.c
  CU_OBJ :=
  BUILD_FLAGS := cpu-only
endif
BASE_CFLAGS += -DGB_GIT_REV='"$(GIT_REV)"'
ifeq ($(OPENCL),1)
  BASE_CFLAGS += -DGB_HAVE_OPENCL -Ibuild/gen
  LDLIBS += $(OPENCL_LIBS)
endif
C_OBJ := $(C_SRC:%.c=$(BUILD)/%.o)
$(addprefix $(BUILD)/,$(REV_OBJS)) $(addprefix build/nocuda/,$(REV_OBJS)): $(REV_STAMP)

UNIT_SRC := $(wildcard tests/unit/*.c)
UNIT_LIB_SRC := $(COMMON_SRC) common/device_none.c $(STM_SRC) \
	$(PBA_SRC) $(RAG_SRC) $(SPEC_SRC) $(LIST_SRC)

# The OpenCL kernel source as a C string: the shared list code with its #include lines dropped.
build/gen/list_kernel_source.h: $(OPENCL_KERNEL_SRC) Makefile
	@mkdir -p $(dir $@)
	sed -e '/^#include/d' -e 's/\\/\\\\/g' -e 's/"/\\"/g' -e 's/^/"/' -e 's/$$/\\n"/' $(OPENCL_KERNEL_SRC) >$@
$(BUILD)/structures/list_opencl.o build/nocuda/structures/list_opencl.o build/unit_tests: build/gen/list_kernel_source.h

.PHONY: all deps test check-gpu sanitize-gpu dist install clean need-cjson

all: need-cjson gpubench

need-cjson:
ifneq ($(CJSON_FOUND),1)
	$(error cJSON not found by pkg-config: run 'make deps' (Debian/Ubuntu: installs it with apt-get))
endif

# What the build and the tests need, installed with apt-get (sudo when not root); shared with .ci/run.
deps:
	scripts/deps.sh

gpubench: $(C_OBJ) $(CU_OBJ)
	$(CC) $(CFLAGS) -o $@ $^ $(LDFLAGS) $(LDLIBS)

$(BUILD)/%.o: %.c $(wildcard */*.h) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(BASE_CFLAGS) -DGB_BUILD_FLAGS='"$(BUILD_FLAGS) $(CFLAGS)"' $(CFLAGS) -MMD -MP -c -o $@ $<

$(BUILD)/%.o: %.cu $(wildcard */*.h */*.cuh) Makefile
	@mkdir -p $(dir $@)
	$(NVCC) $(BASE_NVCCFLAGS) $(NVCCFLAGS) -c -o $@ $<

# The CPU-only binary, built beside the CUDA one so `make test` covers both builds.
build/nocuda/gpubench: need-cjson $(addprefix build/nocuda/,$(CORE_SRC:.c=.o) common/device_none.o)
	$(CC) $(CFLAGS) -o $@ $(filter %.o,$^) $(LDFLAGS) $(CJSON_LIBS) $(OPENCL_LIBS) -lm -pthread

build/nocuda/%.o: %.c $(wildcard */*.h) Makefile
	@mkdir -p $(dir $@)
	$(CC) $(filter-out -DGB_HAVE_CUDA,$(BASE_CFLAGS)) -DGB_BUILD_FLAGS='"cpu-only $(CFLAGS)"' $(CFLAGS) -c -o $@ $<

build/unit_tests: need-cjson $(UNIT_SRC) $(UNIT_LIB_SRC) $(wildcard */*.h tests/unit/*.h)
	@mkdir -p build
	$(CC) $(filter-out -DGB_HAVE_CUDA,$(BASE_CFLAGS)) $(CFLAGS) -o $@ $(UNIT_SRC) $(UNIT_LIB_SRC) $(LDLIBS)

test: all build/nocuda/gpubench build/unit_tests
	GPUBENCH=./gpubench GPUBENCH_NOCUDA=build/nocuda/gpubench tests/run.sh

# Run on a machine with a GPU. GPUBENCH=dist/bin/gpubench runs a prebuilt binary
# (the GPU machine has no cJSON headers to build with).
check-gpu:
	GPUBENCH=$(GPUBENCH) tests/gpu/check.sh

# Every GPU kernel under compute-sanitizer's memcheck, racecheck, synccheck and initcheck.
sanitize-gpu:
	GPUBENCH=$(GPUBENCH) tests/gpu/sanitize.sh

dist: all
	rm -rf dist
	mkdir -p dist/bin dist/lib dist/scripts dist/tests/gpu
	$(CC) $(CFLAGS) -o dist/bin/gpubench $(C_OBJ) $(CU_OBJ) $(LDFLAGS) $(LDLIBS) \
		-Wl,--enable-new-dtags,-rpath,'$$ORIGIN/../lib'
	cp -L "$$(ldd dist/bin/gpubench | awk '/libcjson\.so/ {print $$3}')" dist/lib/libcjson.so.1
	if [ "$(OPENCL)" = 1 ]; then cp -L "$$(ldd dist/bin/gpubench | awk '/libOpenCL\.so/ {print $$3}')" dist/lib/libOpenCL.so.1; fi
	cp -r scripts/. dist/scripts/
	cp tests/gpu/*.sh tests/lib.sh dist/tests/gpu/ 2>/dev/null || true
	@echo "dist/ is self-contained: dist/bin/gpubench finds dist/lib/libcjson.so.1 through its RUNPATH"

install: all
	install -d $(DESTDIR)$(PREFIX)/bin
	install -m 755 gpubench $(DESTDIR)$(PREFIX)/bin/gpubench

clean:
	rm -rf build dist gpubench

-include $(C_OBJ:.o=.d)
