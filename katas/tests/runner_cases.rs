//! `runner::cases_of` against a real kata: a measured run's request carries its inputs, and
//! the runner uses them rather than any seed's.

use katas::KataSpec;
use katas::runner::{RunRequest, cases_of};

#[test]
fn a_measured_request_carries_its_inputs_and_no_seed() {
    use katas::problems::fast_power::Spec;
    let seeded = Spec::cases(42);
    let picked = [seeded.len() as u32 - 1, 0];
    let inputs: Vec<Vec<u8>> = picked
        .iter()
        .map(|&i| katas::wire::encode(&seeded[i as usize].input).unwrap())
        .collect();
    let request = RunRequest {
        seed: 0,
        cases: picked.to_vec(),
        nonce: [0; 16],
        custom: None,
        inputs: Some(inputs.clone()),
        rank: None,
    };
    let cases = cases_of::<Spec>(&request).unwrap();
    assert_eq!(cases.len(), 2);
    for ((index, case), &want) in cases.iter().zip(&picked) {
        assert_eq!(*index, want);
        assert_eq!(
            case.input, seeded[want as usize].input,
            "the input sent, not seed 0's"
        );
    }
    let short = RunRequest {
        inputs: Some(inputs[..1].to_vec()),
        ..request.clone()
    };
    assert!(cases_of::<Spec>(&short).is_none(), "one input per case");
    let twice = RunRequest {
        seed: 42,
        cases: vec![0, 0],
        inputs: None,
        ..request
    };
    assert!(cases_of::<Spec>(&twice).is_none());
}
