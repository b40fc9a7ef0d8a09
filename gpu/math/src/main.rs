//! gpu/math.cpp's computations in Rust, through cushim's modules for CUDA
//! 13.0: each result printed as the FNV-1a hash of its bytes, which must
//! equal the C++ program's linked directly.

use std::ffi::{CStr, c_void};
use std::ptr;

#[allow(clippy::pedantic, missing_docs, dead_code)]
mod cudart {
    include!(concat!(env!("CUSHIM_MATH_DIR"), "/cudart.rs"));
}
#[allow(clippy::pedantic, missing_docs, dead_code)]
mod cufft {
    include!(concat!(env!("CUSHIM_MATH_DIR"), "/cufft.rs"));
}
#[allow(clippy::pedantic, missing_docs, dead_code)]
mod curand {
    include!(concat!(env!("CUSHIM_MATH_DIR"), "/curand.rs"));
}
#[allow(clippy::pedantic, missing_docs, dead_code)]
mod cusparse {
    include!(concat!(env!("CUSHIM_MATH_DIR"), "/cusparse.rs"));
}
#[allow(clippy::pedantic, missing_docs, dead_code)]
mod cusolver {
    include!(concat!(env!("CUSHIM_MATH_DIR"), "/cusolver.rs"));
}

/// Every status type is a newtype over its code: 0 is success.
macro_rules! check {
    ($call:expr) => {{
        let rc = unsafe { $call };
        assert_eq!(rc.0, 0, "{} = {:?}", stringify!($call), rc);
    }};
}

fn fnv1a(bytes: &[u8]) -> u64 {
    bytes.iter().fold(1469598103934665603u64, |h, b| (h ^ u64::from(*b)).wrapping_mul(1099511628211))
}

fn device_hash<T>(device: *const T, count: usize) -> u64 {
    let size = count * std::mem::size_of::<T>();
    let mut host = vec![0u8; size];
    check!(cudart::cudaMemcpy(host.as_mut_ptr().cast(), device.cast(), size, cudart::cudaMemcpyKind::cudaMemcpyDeviceToHost));
    fnv1a(&host)
}

fn malloc<T>(count: usize) -> *mut T {
    let mut p: *mut c_void = ptr::null_mut();
    check!(cudart::cudaMalloc(&raw mut p, (count * std::mem::size_of::<T>()).max(1)));
    p.cast()
}

fn upload<T>(device: *mut T, host: &[T]) {
    check!(cudart::cudaMemcpy(device.cast(), host.as_ptr().cast(), std::mem::size_of_val(host), cudart::cudaMemcpyKind::cudaMemcpyHostToDevice));
}

fn runtime() {
    let mut prop: cudart::cudaDeviceProp = unsafe { std::mem::zeroed() };
    check!(cudart::cudaGetDeviceProperties(&raw mut prop, 0));
    let mut version = 0;
    check!(cudart::cudaRuntimeGetVersion(&raw mut version));
    let device: *mut u8 = malloc(1 << 20);
    check!(cudart::cudaMemset(device.cast(), 0x5a, 1 << 20));
    let mut host = vec![0u8; 1 << 20];
    for i in (0..host.len()).step_by(4096) {
        host[i] = (i >> 12) as u8;
    }
    upload(unsafe { device.add(4096) }, &host[4096..4096 + 65536]);
    let name = unsafe { CStr::from_ptr(prop.name.as_ptr()) }.to_string_lossy().into_owned();
    println!(
        "cudart device {name} sm_{}{} runtime {version} memory {:016x}",
        prop.major,
        prop.minor,
        device_hash(device, 1 << 20)
    );
    check!(cudart::cudaFree(device.cast()));
}

fn fft() {
    let n = 1usize << 14;
    let host: Vec<cufft::cufftComplex> = (0..n)
        .map(|i| cufft::cufftComplex { x: (i % 97) as f32 / 97.0, y: (i % 13) as f32 / 13.0 })
        .collect();
    let data: *mut cufft::cufftComplex = malloc(n);
    upload(data, &host);
    let mut plan: cufft::cufftHandle = 0;
    check!(cufft::cufftPlan1d(&raw mut plan, n as i32, cufft::cufftType_t::CUFFT_C2C, 1));
    check!(cufft::cufftExecC2C(plan, data, data, -1));
    check!(cudart::cudaDeviceSynchronize());
    let forward = device_hash(data, n);
    check!(cufft::cufftExecC2C(plan, data, data, 1));
    check!(cudart::cudaDeviceSynchronize());
    println!("cufft c2c n={n} forward {forward:016x} inverse {:016x}", device_hash(data, n));
    check!(cufft::cufftDestroy(plan));
    check!(cudart::cudaFree(data.cast()));
}

fn uniform() {
    let n = 1usize << 20;
    let data: *mut f32 = malloc(n);
    let mut generator: curand::curandGenerator_t = ptr::null_mut();
    check!(curand::curandCreateGenerator(&raw mut generator, curand::curandRngType::CURAND_RNG_PSEUDO_PHILOX4_32_10));
    check!(curand::curandSetPseudoRandomGeneratorSeed(generator, 1234));
    check!(curand::curandGenerateUniform(generator, data, n));
    check!(cudart::cudaDeviceSynchronize());
    println!("curand philox uniform n={n} {:016x}", device_hash(data, n));
    check!(curand::curandDestroyGenerator(generator));
    check!(cudart::cudaFree(data.cast()));
}

fn sparse() {
    use cusparse::*;
    let n = 1usize << 16;
    let (mut rows, mut cols, mut values) = (vec![0i32; n + 1], Vec::new(), Vec::new());
    let mut x = vec![0f32; n];
    for i in 0..n {
        rows[i] = cols.len() as i32;
        for j in i.saturating_sub(1)..=(i + 1).min(n - 1) {
            cols.push(j as i32);
            values.push(if j == i { 2.0f32 } else { -1.0 });
        }
        x[i] = ((i * 7919) % 1000) as f32 / 1000.0;
    }
    rows[n] = cols.len() as i32;
    let nnz = cols.len();
    let (d_rows, d_cols, d_values, d_x, d_y): (*mut i32, *mut i32, *mut f32, *mut f32, *mut f32) =
        (malloc(n + 1), malloc(nnz), malloc(nnz), malloc(n), malloc(n));
    upload(d_rows, &rows);
    upload(d_cols, &cols);
    upload(d_values, &values);
    upload(d_x, &x);
    check!(cudart::cudaMemset(d_y.cast(), 0, n * 4));
    let mut handle: cusparseHandle_t = ptr::null_mut();
    check!(cusparseCreate(&raw mut handle));
    let mut a: cusparseSpMatDescr_t = ptr::null_mut();
    let (mut vx, mut vy): (cusparseDnVecDescr_t, cusparseDnVecDescr_t) = (ptr::null_mut(), ptr::null_mut());
    let i32i = cusparseIndexType_t::CUSPARSE_INDEX_32I;
    let f32r = cudaDataType_t::CUDA_R_32F;
    check!(cusparseCreateCsr(&raw mut a, n as i64, n as i64, nnz as i64, d_rows.cast(), d_cols.cast(), d_values.cast(), i32i, i32i, cusparseIndexBase_t::CUSPARSE_INDEX_BASE_ZERO, f32r));
    check!(cusparseCreateDnVec(&raw mut vx, n as i64, d_x.cast(), f32r));
    check!(cusparseCreateDnVec(&raw mut vy, n as i64, d_y.cast(), f32r));
    let (alpha, beta) = (1.0f32, 0.0f32);
    let op = cusparseOperation_t::CUSPARSE_OPERATION_NON_TRANSPOSE;
    let alg = cusparseSpMVAlg_t::CUSPARSE_SPMV_CSR_ALG1;
    let mut size = 0usize;
    check!(cusparseSpMV_bufferSize(handle, op, (&raw const alpha).cast(), a, vx, (&raw const beta).cast(), vy, f32r, alg, &raw mut size));
    let buffer: *mut u8 = malloc(size.max(1));
    check!(cusparseSpMV(handle, op, (&raw const alpha).cast(), a, vx, (&raw const beta).cast(), vy, f32r, alg, buffer.cast()));
    check!(cudart::cudaDeviceSynchronize());
    println!("cusparse csr spmv n={n} nnz={nnz} {:016x}", device_hash(d_y, n));
    check!(cusparseDestroySpMat(a));
    check!(cusparseDestroyDnVec(vx));
    check!(cusparseDestroyDnVec(vy));
    check!(cusparseDestroy(handle));
    for p in [d_rows.cast::<c_void>(), d_cols.cast(), d_values.cast(), d_x.cast(), d_y.cast(), buffer.cast()] {
        check!(cudart::cudaFree(p));
    }
}

fn solver() {
    use cusolver::*;
    let n = 512usize;
    let b: Vec<f64> =
        (0..n * n).map(|i| f64::from(((i as u32).wrapping_mul(2654435761u32)) % 1000) / 1000.0 - 0.5).collect();
    let mut spd = vec![0f64; n * n];
    for i in 0..n {
        for j in 0..n {
            let mut s = if i == j { n as f64 } else { 0.0 };
            for k in 0..n {
                s += b[i + k * n] * b[j + k * n];
            }
            spd[i + j * n] = s;
        }
    }
    let mut handle: cusolverDnHandle_t = ptr::null_mut();
    check!(cusolverDnCreate(&raw mut handle));
    let (d_a, info, pivots): (*mut f64, *mut i32, *mut i32) = (malloc(n * n), malloc(1), malloc(n));
    upload(d_a, &spd);
    let lower = cublasFillMode_t::CUBLAS_FILL_MODE_LOWER;
    let mut lwork = 0i32;
    check!(cusolverDnDpotrf_bufferSize(handle, lower, n as i32, d_a, n as i32, &raw mut lwork));
    let work: *mut f64 = malloc(lwork as usize);
    check!(cusolverDnDpotrf(handle, lower, n as i32, d_a, n as i32, work, lwork, info));
    check!(cudart::cudaDeviceSynchronize());
    let mut potrf_info = [-1i32];
    check!(cudart::cudaMemcpy(potrf_info.as_mut_ptr().cast(), info.cast(), 4, cudart::cudaMemcpyKind::cudaMemcpyDeviceToHost));
    let potrf = device_hash(d_a, n * n);
    check!(cudart::cudaFree(work.cast()));
    upload(d_a, &b);
    check!(cusolverDnDgetrf_bufferSize(handle, n as i32, n as i32, d_a, n as i32, &raw mut lwork));
    let work: *mut f64 = malloc(lwork as usize);
    check!(cusolverDnDgetrf(handle, n as i32, n as i32, d_a, n as i32, work, pivots, info));
    check!(cudart::cudaDeviceSynchronize());
    let mut getrf_info = [-1i32];
    check!(cudart::cudaMemcpy(getrf_info.as_mut_ptr().cast(), info.cast(), 4, cudart::cudaMemcpyKind::cudaMemcpyDeviceToHost));
    println!(
        "cusolver n={n} potrf info {} {potrf:016x} getrf info {} {:016x} pivots {:016x}",
        potrf_info[0],
        getrf_info[0],
        device_hash(d_a, n * n),
        device_hash(pivots, n)
    );
    for p in [work.cast::<c_void>(), d_a.cast(), info.cast(), pivots.cast()] {
        check!(cudart::cudaFree(p));
    }
    check!(cusolverDnDestroy(handle));
}

fn main() {
    runtime();
    fft();
    uniform();
    sparse();
    solver();
    for (lib, path) in [
        ("cudart", cudart::CUSHIM_LIBRARY.get().map(|l| l.path().to_string())),
        ("cufft", cufft::CUSHIM_LIBRARY.get().map(|l| l.path().to_string())),
        ("curand", curand::CUSHIM_LIBRARY.get().map(|l| l.path().to_string())),
        ("cusparse", cusparse::CUSHIM_LIBRARY.get().map(|l| l.path().to_string())),
        ("cusolver", cusolver::CUSHIM_LIBRARY.get().map(|l| l.path().to_string())),
    ] {
        eprintln!("found {lib}: {path:?}");
    }
}
