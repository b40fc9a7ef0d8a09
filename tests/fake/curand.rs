// cuRAND in the family programs (Rust), with the fake `libcurand.c`:
// included by the module list `tests/family.rs` writes from the registry,
// beside the module `curand` and the program's own items.

/// The library present, found after cudart from its directory: uniform
/// numbers, and the function the fake lacks fails alone.
pub fn present() {
    let mut generator: curand::curandGenerator_t = ptr::null_mut();
    let philox = curand::curandRngType::CURAND_RNG_PSEUDO_PHILOX4_32_10;
    unsafe { curand::Api::curandCreateGenerator(&raw mut generator, philox) }.expect("generator");
    unsafe { curand::Api::curandSetPseudoRandomGeneratorSeed(generator, 1234) }.expect("seed");
    let mut numbers = [0.0f32; 3];
    unsafe { curand::Api::curandGenerateUniform(generator, numbers.as_mut_ptr(), 3) }.expect("uniform");
    println!("curand: uniform [{:.6}, {:.6}, {:.6}]", numbers[0], numbers[1], numbers[2]);
    let mut counts = [0u32; 2];
    match unsafe { curand::Api::curandGenerateBinomial(generator, counts.as_mut_ptr(), 2, 10, 0.5) } {
        Err(curand::Error::Load(e @ curand::LoadError::SymbolNotFound { .. })) => println!("curand: {e}"),
        other => panic!("curandGenerateBinomial: {other:?}"),
    }
    unsafe { curand::Api::curandDestroyGenerator(generator) }.expect("destroy after a missing function");
}

/// No library: its own not-found code.
pub fn absent() {
    let mut generator: curand::curandGenerator_t = ptr::null_mut();
    let philox = curand::curandRngType::CURAND_RNG_PSEUDO_PHILOX4_32_10;
    println!("curand: curandCreateGenerator code {}", unsafe { curand::curandCreateGenerator(&raw mut generator, philox) }.0);
}
